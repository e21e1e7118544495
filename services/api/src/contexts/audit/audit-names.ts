import type { AuditRef, AuditTargetType } from '@kupa/proto';

/** How a target or parent is named in the activity log: a person's full name and e-mail. */
export interface AuditName {
  name: string;
  email: string | null;
}

/** Names the ids it knows among those asked for, in one read; ids it does not know are left out. */
export type AuditNamer = (ids: readonly string[]) => Promise<ReadonlyMap<string, AuditName>>;

/** A target or parent as stored in the log, before it is named. */
export interface StoredRef {
  type: AuditTargetType;
  id: string;
}

/**
 * Contexts that own what entries point at register a namer for those target types (identity names people), so that
 * the log shows "Dana Cohen (dana@example.com)" rather than a uuid without the audit context reading anyone's tables
 * (docs/adr/0007-activity-log.md). Names are read when entries are read, so they follow later renames and a rebuild
 * of the log never depends on them.
 */
export class AuditNameRegistry {
  private readonly namers = new Map<AuditTargetType, AuditNamer>();

  register(types: readonly AuditTargetType[], namer: AuditNamer): void {
    for (const type of types) {
      if (this.namers.has(type)) throw new Error(`An audit namer for ${type} is already registered`);
      this.namers.set(type, namer);
    }
  }

  /**
   * Names every ref of a page at once: one call per namer, however many entries the page holds. A ref nobody can
   * name (a payment, which its number names, or an account that no longer exists) keeps null name and e-mail.
   */
  async name(refs: readonly StoredRef[]): Promise<(ref: StoredRef) => AuditRef> {
    const idsByNamer = new Map<AuditNamer, Set<string>>();
    for (const ref of refs) {
      const namer = this.namers.get(ref.type);
      if (!namer) continue;
      const ids = idsByNamer.get(namer) ?? new Set<string>();
      ids.add(ref.id);
      idsByNamer.set(namer, ids);
    }
    const answers = new Map<AuditNamer, ReadonlyMap<string, AuditName>>();
    for (const [namer, ids] of idsByNamer) answers.set(namer, await namer([...ids]));
    return (ref) => {
      const namer = this.namers.get(ref.type);
      const found = namer ? answers.get(namer)?.get(ref.id) : undefined;
      return { type: ref.type, id: ref.id, name: found?.name ?? null, email: found?.email ?? null };
    };
  }
}
