import type { AuditChange, AuditOperationType } from '@kupa/proto';

/** Field values as the log stores them: plain JSON, with absent and null meaning the same ("no value"). */
export type FieldValues = Record<string, unknown>;

export interface FieldDiff {
  changes: AuditChange[];
  /** What the target looks like after the entry; null once it is deleted. */
  after: FieldValues | null;
}

/**
 * Mappers may hand over dates, bigints or undefined; the log keeps JSON only, so that a value reads back exactly
 * as it was compared.
 */
export function toJsonValue(value: unknown): unknown {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString();
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'object': {
      if (Array.isArray(value)) return value.map((item) => toJsonValue(item) ?? null);
      const result: FieldValues = {};
      for (const [key, item] of Object.entries(value as FieldValues)) {
        const json = toJsonValue(item);
        if (json !== undefined) result[key] = json;
      }
      return result;
    }
    default:
      return undefined;
  }
}

/** JSON with object keys sorted, so that equal values compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as FieldValues)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as FieldValues)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function withoutNulls(values: FieldValues): FieldValues {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null && value !== undefined));
}

/**
 * Changes are listed by field name: a payload read back from jsonb has its keys in another order than when it was
 * appended, and a rebuild must reproduce every entry exactly.
 */
function byName(fields: Iterable<string>): string[] {
  return [...fields].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}

/**
 * The field-level before/after of one entry against the target's last known values. CREATED starts from nothing
 * (every old value null), DELETED ends in nothing (every new value null, old values from what was known, else from
 * the event), UPDATED lists only the fields whose value really changed.
 */
export function diffFields(
  operationType: AuditOperationType,
  before: FieldValues | null,
  fields: Record<string, unknown>,
): FieldDiff {
  const incoming = toJsonValue(fields) as FieldValues;
  const known = operationType === 'CREATED' ? {} : (before ?? {});
  const changes: AuditChange[] = [];
  const record = (field: string, oldValue: unknown, newValue: unknown): void => {
    if (canonical(oldValue) !== canonical(newValue)) changes.push({ field, oldValue, newValue });
  };

  if (operationType === 'DELETED') {
    for (const field of byName(new Set([...Object.keys(known), ...Object.keys(incoming)]))) {
      record(field, known[field] ?? incoming[field] ?? null, null);
    }
    return { changes, after: null };
  }
  for (const field of byName(Object.keys(incoming))) record(field, known[field] ?? null, incoming[field] ?? null);
  return { changes, after: withoutNulls({ ...known, ...incoming }) };
}
