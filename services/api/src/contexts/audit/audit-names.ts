import type { AuditRef, AuditTargetType } from '@kupa/proto';

/** How a target or parent is named in the activity log: a person's full name and e-mail. */
export interface AuditName {
  name: string;
  email: string | null;
}

/** Names the ids it knows among those asked for, in one read; ids it does not know are left out. */
export type AuditNamer = (ids: readonly string[]) => Promise<ReadonlyMap<string, AuditName>>;

/**
 * Reads, from the log's own entries, the last non-empty value of `field` recorded for each of `ids` of `type`: the
 * name a target had when it was last named, kept by the log because events (and so entries) are never rewritten.
 */
export type RecordedNameReader = (
  type: AuditTargetType,
  field: string,
  ids: readonly string[],
) => Promise<ReadonlyMap<string, string>>;

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
  private readonly recordedFields = new Map<AuditTargetType, string>();

  register(types: readonly AuditTargetType[], namer: AuditNamer): void {
    for (const type of types) {
      if (this.namers.has(type)) throw new Error(`An audit namer for ${type} is already registered`);
      this.namers.set(type, namer);
    }
  }

  /**
   * Declares which field of a target's own entries names it when its namer no longer can (a deleted package's
   * `name`), or when no namer exists (a subscription's `planName`, as bought). The field must be one the context's
   * audit mapper writes; the value is the one of the target's latest entry that recorded it.
   */
  registerRecordedName(type: AuditTargetType, field: string): void {
    if (this.recordedFields.has(type)) throw new Error(`A recorded name field for ${type} is already registered`);
    this.recordedFields.set(type, field);
  }

  /**
   * Names every ref of a page at once: one call per namer, however many entries the page holds, then one read of the
   * recorded names per target type for the refs still unnamed. A ref nobody can name (a payment, which its number
   * names, or an account that no longer exists) keeps null name and e-mail.
   */
  async name(refs: readonly StoredRef[], recorded?: RecordedNameReader): Promise<(ref: StoredRef) => AuditRef> {
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
    const live = (ref: StoredRef): AuditName | undefined => {
      const namer = this.namers.get(ref.type);
      return namer ? answers.get(namer)?.get(ref.id) : undefined;
    };
    const recordedNames = recorded
      ? await this.readRecorded(
          refs.filter((ref) => !live(ref)),
          recorded,
        )
      : new Map();
    return (ref) => {
      const found = live(ref);
      if (found) return { type: ref.type, id: ref.id, name: found.name, email: found.email };
      const name = recordedNames.get(ref.type)?.get(ref.id);
      return name === undefined
        ? { type: ref.type, id: ref.id, name: null, email: null }
        : { type: ref.type, id: ref.id, name, email: null, nameRecorded: true };
    };
  }

  private async readRecorded(
    unnamed: readonly StoredRef[],
    recorded: RecordedNameReader,
  ): Promise<Map<AuditTargetType, ReadonlyMap<string, string>>> {
    const idsByType = new Map<AuditTargetType, Set<string>>();
    for (const ref of unnamed) {
      if (!this.recordedFields.has(ref.type)) continue;
      const ids = idsByType.get(ref.type) ?? new Set<string>();
      ids.add(ref.id);
      idsByType.set(ref.type, ids);
    }
    const names = new Map<AuditTargetType, ReadonlyMap<string, string>>();
    for (const [type, ids] of idsByType) {
      names.set(type, await recorded(type, this.recordedFields.get(type) as string, [...ids]));
    }
    return names;
  }
}
