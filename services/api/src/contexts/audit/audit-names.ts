import type { AuditRef, AuditTargetType } from '@kupa/proto';

/** The enums of proto whose values an activity-log ref may carry as its name (`AuditRef.nameEnum`). */
type NameEnum = NonNullable<AuditRef['nameEnum']>;

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

/**
 * A field of a target's own entries that names it: a plain name (a package's `name`), or a value of one of proto's
 * enums that screens show by its label in their language (a trial subscription's `type`, as no package names it).
 */
export type RecordedNameField = string | { field: string; enumName: NameEnum };

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
  private readonly recordedFields = new Map<AuditTargetType, readonly RecordedNameField[]>();

  register(types: readonly AuditTargetType[], namer: AuditNamer): void {
    for (const type of types) {
      if (this.namers.has(type)) throw new Error(`An audit namer for ${type} is already registered`);
      this.namers.set(type, namer);
    }
  }

  /**
   * Declares which fields of a target's own entries name it when its namer no longer can (a deleted package's
   * `name`), or when no namer exists (a subscription's `planName`, as bought), tried in order: a trial subscription,
   * which no package names, falls back to its `type`. Each field must be one the context's audit mapper writes; the
   * value is the one of the target's latest entry that recorded it.
   */
  registerRecordedName(type: AuditTargetType, ...fields: RecordedNameField[]): void {
    if (this.recordedFields.has(type)) throw new Error(`A recorded name field for ${type} is already registered`);
    if (fields.length === 0) throw new Error(`A recorded name for ${type} needs a field`);
    this.recordedFields.set(type, fields);
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
      const recordedName = recordedNames.get(ref.type)?.get(ref.id);
      if (recordedName === undefined) return { type: ref.type, id: ref.id, name: null, email: null };
      const named: AuditRef = { type: ref.type, id: ref.id, name: recordedName.name, email: null, nameRecorded: true };
      return recordedName.enumName ? { ...named, nameEnum: recordedName.enumName } : named;
    };
  }

  /** One read per target type and field, each later field asked only for the ids the earlier ones left unnamed. */
  private async readRecorded(
    unnamed: readonly StoredRef[],
    recorded: RecordedNameReader,
  ): Promise<Map<AuditTargetType, ReadonlyMap<string, RecordedName>>> {
    const idsByType = new Map<AuditTargetType, Set<string>>();
    for (const ref of unnamed) {
      if (!this.recordedFields.has(ref.type)) continue;
      const ids = idsByType.get(ref.type) ?? new Set<string>();
      ids.add(ref.id);
      idsByType.set(ref.type, ids);
    }
    const names = new Map<AuditTargetType, ReadonlyMap<string, RecordedName>>();
    for (const [type, ids] of idsByType) {
      const found = new Map<string, RecordedName>();
      for (const field of this.recordedFields.get(type) ?? []) {
        const left = [...ids].filter((id) => !found.has(id));
        if (left.length === 0) break;
        const fieldName = typeof field === 'string' ? field : field.field;
        const enumName = typeof field === 'string' ? undefined : field.enumName;
        for (const [id, name] of await recorded(type, fieldName, left)) found.set(id, { name, enumName });
      }
      names.set(type, found);
    }
    return names;
  }
}

/** A name read from the log's entries, with the enum it is a value of when it is one. */
interface RecordedName {
  name: string;
  enumName?: NameEnum;
}
