import { describe, expect, it } from 'vitest';
import { SYSTEM_ACCOUNTS } from './accounts';
import type { Bilingual } from './bilingual';
import { BROADCAST_EVENT_TYPES } from './broadcasts';
import { BULK_EVENT_TYPES } from './bulk-operations';
import { DEPOSIT_ATTENTION_EVENT_TYPES } from './deposit-attention';
import { DEPOSIT_CLAIM_EVENT_TYPES } from './deposit-claims';
import { TELEGRAM_EVENT_TYPES } from './telegram';
import { NOTIFICATION_PREFERENCES_EVENT_TYPES } from './notification-preferences';
import { AUDIT_OPERATION_TYPES, LANGUAGES, PAYMENT_STATUSES } from './enums';
import { EVENT_TYPES } from './event-catalogue';
import {
  AUDIT_FIELDS,
  AUDIT_WORDS,
  EVENT_SENTENCES,
  EVENT_TYPE_LABELS,
  FALLBACK_SENTENCE,
  OPERATION_EVENT_LABELS,
  SYSTEM_ACCOUNT_LABELS,
  USER_ACCOUNT_LABEL,
} from './event-text';
import { USER_EVENT_TYPES } from './identity-events';
import { ENUM_LABELS, ENUM_VALUES, type EnumName } from './labels';
import { PAYMENT_PLAN_EVENT_TYPES } from './catalog-events';
import { LEDGER_EVENT_TYPES } from './ledger-events';
import { SUBSCRIPTION_EVENT_TYPES } from './subscription-events';
import { SAVED_CARD_EVENT_TYPES } from './saved-cards';
import { PROMO_CODE_EVENT_TYPES } from './promo-codes';
import { VOUCHER_EVENT_TYPES } from './vouchers';
import { PAYMENTS_CSV_COLUMNS } from './payments-csv';

const HEBREW_LETTER = /[\u05d0-\u05ea]/;

/** A Hebrew text has Hebrew letters, an English one has none; both are non-empty. */
function expectBothLanguages(text: Bilingual | undefined, what: string): void {
  expect(text, `${what} has no text`).toBeDefined();
  expect(text?.he.trim(), `${what} in Hebrew`).not.toBe('');
  expect(text?.en.trim(), `${what} in English`).not.toBe('');
  expect(text?.en, `${what} in English holds Hebrew`).not.toMatch(HEBREW_LETTER);
}

/** Hebrew that is really Hebrew: brand names and codes (Stripe, USDT) may be the same in both languages. */
function expectTranslated(text: Bilingual | undefined, what: string): void {
  expectBothLanguages(text, what);
  expect(text?.he, `${what} is not translated to Hebrew`).toMatch(HEBREW_LETTER);
}

const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('the event catalogue', () => {
  it('holds every identity, ledger, catalog, subscription, saved card, voucher and bulk event type once', () => {
    const declared = [
      ...Object.values(USER_EVENT_TYPES),
      ...Object.values(LEDGER_EVENT_TYPES),
      ...Object.values(PAYMENT_PLAN_EVENT_TYPES),
      ...Object.values(SUBSCRIPTION_EVENT_TYPES),
      ...Object.values(SAVED_CARD_EVENT_TYPES),
      ...Object.values(PROMO_CODE_EVENT_TYPES),
      ...Object.values(VOUCHER_EVENT_TYPES),
      ...Object.values(BULK_EVENT_TYPES),
      ...Object.values(BROADCAST_EVENT_TYPES),
      ...Object.values(DEPOSIT_ATTENTION_EVENT_TYPES),
      ...Object.values(DEPOSIT_CLAIM_EVENT_TYPES),
      ...Object.values(TELEGRAM_EVENT_TYPES),
      ...Object.values(NOTIFICATION_PREFERENCES_EVENT_TYPES),
    ];
    expect([...EVENT_TYPES].sort()).toEqual([...declared].sort());
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
  });

  it('names every event type and gives it a sentence in Hebrew and English', () => {
    for (const type of EVENT_TYPES) {
      expectTranslated(EVENT_TYPE_LABELS[type], `the label of ${type}`);
      // A sentence made only of placeholders ("{target}: {changes}") has no words to translate.
      const words = EVENT_SENTENCES[type].en.replace(/\{\w+\}/g, '');
      if (/[a-z]/i.test(words)) expectTranslated(EVENT_SENTENCES[type], `the sentence of ${type}`);
      else expectBothLanguages(EVENT_SENTENCES[type], `the sentence of ${type}`);
    }
    expect(Object.keys(EVENT_TYPE_LABELS).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.keys(EVENT_SENTENCES).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('writes every sentence about its target, with the same placeholders in both languages', () => {
    const known = new Set(['target', 'parent', 'changes', 'event', 'actor']);
    const fieldNames = new Set(Object.values(AUDIT_FIELDS).flatMap((fields) => Object.keys(fields)));
    for (const [type, sentence] of [...Object.entries(EVENT_SENTENCES), ['fallback', FALLBACK_SENTENCE] as const]) {
      expect(placeholders(sentence.he), type).toEqual(placeholders(sentence.en));
      expect(placeholders(sentence.en), type).toContain('target');
      for (const name of placeholders(sentence.en)) {
        expect(known.has(name) || fieldNames.has(name), `${type} names an unknown placeholder {${name}}`).toBe(true);
      }
    }
  });

  it('labels every field the activity log shows, every operation and the words around values', () => {
    for (const [group, fields] of Object.entries(AUDIT_FIELDS)) {
      for (const [field, text] of Object.entries(fields)) expectTranslated(text.label, `${group}.${field}`);
    }
    for (const operation of AUDIT_OPERATION_TYPES) expectTranslated(OPERATION_EVENT_LABELS[operation], operation);
    for (const [name, text] of Object.entries(AUDIT_WORDS)) expectBothLanguages(text, name);
  });
});

describe('enum labels', () => {
  it('label every value of every enumeration in Hebrew and English', () => {
    for (const [name, values] of Object.entries(ENUM_VALUES) as Array<[EnumName, readonly (string | number)[]]>) {
      const labels = ENUM_LABELS[name] as Record<string, Bilingual>;
      for (const value of values) expectBothLanguages(labels[String(value)], `${name}.${value}`);
      expect(Object.keys(labels).sort(), name).toEqual(values.map(String).sort());
    }
    expect(Object.keys(ENUM_VALUES).sort()).toEqual(Object.keys(ENUM_LABELS).sort());
    // Each list is the enumeration itself, not a copy that could drift from it.
    expect(ENUM_VALUES.paymentStatus).toBe(PAYMENT_STATUSES);
    expect(ENUM_VALUES.language).toBe(LANGUAGES);
  });
});

describe('ledger account names', () => {
  it('name every system account and a user account whose holder is unknown', () => {
    for (const account of SYSTEM_ACCOUNTS) expectTranslated(SYSTEM_ACCOUNT_LABELS[account], account);
    expect(Object.keys(SYSTEM_ACCOUNT_LABELS).sort()).toEqual([...SYSTEM_ACCOUNTS].sort());
    expectTranslated(USER_ACCOUNT_LABEL, 'a user account');
  });
});

describe('payments CSV columns', () => {
  it('have a header in both languages, and date-time headers name their zone', () => {
    for (const column of PAYMENTS_CSV_COLUMNS) {
      expectTranslated(column.label, column.key);
      expect(placeholders(column.label.he), column.key).toEqual(placeholders(column.label.en));
      expect(placeholders(column.label.en), column.key).toEqual(column.kind === 'dateTime' ? ['zone'] : []);
      if (column.kind === 'enum') expect(column.enumName, column.key).toBeDefined();
    }
    expect(new Set(PAYMENTS_CSV_COLUMNS.map((column) => column.key)).size).toBe(PAYMENTS_CSV_COLUMNS.length);
  });
});
