/** Turns the data of an event written at one schema version into the data of the next version. */
export type Upcaster = (data: unknown) => unknown;

export interface EventTypeOptions {
  /** The version new events of this type are written at; 1 when omitted. */
  schemaVersion?: number;
  /** Upcasters keyed by the version they upgrade from: `{ 1: v1ToV2, 2: v2ToV3 }`. */
  upcasters?: Record<number, Upcaster>;
}

/** The schema version of events of a type nobody registered, and of every type's first schema. */
export const FIRST_SCHEMA_VERSION = 1;

interface EventTypeEntry {
  schemaVersion: number;
  upcasters: Map<number, Upcaster>;
}

/**
 * The event types contexts declare, with their current schema version and the upcasters that bring old stored
 * events up to it. The store writes the current version beside each event and upcasts on every read, so deciders
 * and projections only ever see the current shape; stored history is never rewritten (that would break its hash).
 */
export class EventTypeRegistry {
  private readonly types = new Map<string, EventTypeEntry>();

  /**
   * Declares a type. Declaring it again at the same schema version is harmless (two contexts may both name an
   * event they share); declaring it at two different versions is a bug and is refused.
   */
  register(type: string, options: EventTypeOptions = {}): void {
    const schemaVersion = options.schemaVersion ?? FIRST_SCHEMA_VERSION;
    if (!Number.isInteger(schemaVersion) || schemaVersion < FIRST_SCHEMA_VERSION) {
      throw new Error(`Event type ${type}: schema version must be a positive integer`);
    }
    const existing = this.types.get(type);
    if (existing && existing.schemaVersion !== schemaVersion) {
      throw new Error(
        `Event type ${type} is registered at schema versions ${existing.schemaVersion} and ${schemaVersion}`,
      );
    }
    if (!existing) this.types.set(type, { schemaVersion, upcasters: new Map() });
    for (const [fromVersion, upcaster] of Object.entries(options.upcasters ?? {})) {
      this.registerUpcaster(type, Number(fromVersion), upcaster);
    }
  }

  registerUpcaster(type: string, fromVersion: number, upcaster: Upcaster): void {
    const entry = this.types.get(type);
    if (!entry) throw new Error(`Event type ${type} must be registered before its upcasters`);
    if (!Number.isInteger(fromVersion) || fromVersion < FIRST_SCHEMA_VERSION || fromVersion >= entry.schemaVersion) {
      throw new Error(
        `Event type ${type}: an upcaster from version ${fromVersion} is outside 1..${entry.schemaVersion - 1}`,
      );
    }
    if (entry.upcasters.has(fromVersion))
      throw new Error(`Event type ${type}: two upcasters from version ${fromVersion}`);
    entry.upcasters.set(fromVersion, upcaster);
  }

  isRegistered(type: string): boolean {
    return this.types.has(type);
  }

  registeredTypes(): string[] {
    return [...this.types.keys()];
  }

  /** The version new events of `type` are written at. */
  schemaVersion(type: string): number {
    return this.types.get(type)?.schemaVersion ?? FIRST_SCHEMA_VERSION;
  }

  /** Brings data stored at `storedVersion` up to the current version, one step at a time. */
  upcast(type: string, storedVersion: number, data: unknown): unknown {
    const entry = this.types.get(type);
    const current = entry?.schemaVersion ?? FIRST_SCHEMA_VERSION;
    if (storedVersion > current) {
      throw new Error(
        `Event type ${type} was stored at schema version ${storedVersion}, newer than this build's ${current}`,
      );
    }
    let upcasted = data;
    for (let version = storedVersion; version < current; version += 1) {
      const upcaster = entry?.upcasters.get(version);
      if (!upcaster) throw new Error(`Event type ${type} has no upcaster from schema version ${version}`);
      upcasted = upcaster(upcasted);
    }
    return upcasted;
  }
}
