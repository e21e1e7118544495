import type { AuditOperationType, AuditTargetType } from '@kupa/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.port';

/**
 * How one event appears in the activity log. `fields` holds the values the event sets (never secrets such as
 * password hashes); the audit projection diffs them against what it last saw for that target, which yields the
 * field-level before/after changes.
 */
export interface AuditEntryDraft {
  targetType: AuditTargetType;
  targetId: string;
  parent: { type: AuditTargetType; id: string } | null;
  operationType: AuditOperationType;
  fields: Record<string, unknown>;
}

export type AuditMapper = (event: RecordedEvent) => AuditEntryDraft | AuditEntryDraft[] | null;

/**
 * The mapper of a type whose events never appear in the log. Registered under this mapper, a type is also one the
 * activity log ignores: a rebuild or replay check of the log does not decode its events.
 */
export const keptOutOfTheLog: AuditMapper = () => null;

/**
 * Contexts register a mapper per event type they own (from their module's onModuleInit). Events without a mapper
 * still reach the log, described from their stream and payload.
 */
export class AuditMapperRegistry {
  private readonly mappers = new Map<string, AuditMapper>();
  private readonly keptOut: string[] = [];

  register(eventType: string, mapper: AuditMapper): void {
    if (this.mappers.has(eventType)) throw new Error(`An audit mapper for ${eventType} is already registered`);
    this.mappers.set(eventType, mapper);
    if (mapper === keptOutOfTheLog) this.keptOut.push(eventType);
  }

  /** The types registered with `keptOutOfTheLog`. */
  typesKeptOut(): readonly string[] {
    return this.keptOut;
  }

  mapperFor(eventType: string): AuditMapper | undefined {
    return this.mappers.get(eventType);
  }
}
