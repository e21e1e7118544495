import { describe, expect, it } from 'vitest';
import { CLIENT_ENUM_LABELS, clientEnumLabel, ENUM_LABELS, ENUM_VALUES, enumLabel, STAFF_ENUM_LABELS } from './labels';

describe('enum labels', () => {
  it('split into what a client can see and what only staff see, with nothing in both', () => {
    const client = Object.keys(CLIENT_ENUM_LABELS);
    const staff = Object.keys(STAFF_ENUM_LABELS);
    expect(client.filter((name) => staff.includes(name))).toEqual([]);
    expect(Object.keys(ENUM_LABELS).sort()).toEqual([...client, ...staff].sort());
    expect(Object.keys(ENUM_VALUES).sort()).toEqual(Object.keys(ENUM_LABELS).sort());
    // The activity log's, balance fixes' and sort orders' labels stay out of the portal (ADR 0048).
    expect(staff.sort()).toEqual(['auditOperationType', 'auditTargetType', 'balanceFixAction', 'sortOrder']);
  });

  it('label every value in both languages, the client part the same through either door', () => {
    for (const [name, values] of Object.entries(ENUM_VALUES) as Array<[keyof typeof ENUM_LABELS, unknown[]]>) {
      for (const value of values as Array<string | number>) {
        expect(enumLabel(name, value, 'he')).not.toBe('');
        expect(enumLabel(name, value, 'en')).not.toBe('');
      }
    }
    expect(clientEnumLabel('paymentStatus', 'REVIEW', 'en')).toBe(enumLabel('paymentStatus', 'REVIEW', 'en'));
    expect(enumLabel('auditTargetType', 'BULK_BATCH', 'he')).toBe('פעולה גורפת');
  });
});
