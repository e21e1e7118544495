import { describe, expect, it } from 'vitest';
import {
  auditActorName,
  auditFieldLabel,
  auditRefSegments,
  auditSentence,
  auditSentenceParts,
  formatAuditValue,
  type SentencePart,
} from './audit-sentence';
import { CARD_PROVIDER_STATUS_LABELS } from './card';
import { CASHIER_PROVIDER_STATUS_LABELS } from './cashier';
import { SYSTEM_ACTOR_ID } from './enums';
import type { AuditLog } from './payloads';

const DANA = {
  type: 'CLIENT',
  id: '0b7e7c2e-4a52-4bb4-8a8e-3a1d2f0c9e11',
  name: 'Dana Cohen',
  email: 'dana@example.com',
} as const;

function entry(overrides: Partial<AuditLog>): AuditLog {
  return {
    id: 'a-1',
    createdAt: '2026-03-02T10:00:00.000Z',
    createdBy: { id: 's-1', name: 'Avi Admin' },
    operationType: 'UPDATED',
    target: DANA,
    parent: null,
    changes: [],
    eventType: 'UserStatusChanged',
    ...overrides,
  };
}

/** The sentence as plain text without isolates, and its links marked, to compare with what a reader sees. */
function read(parts: SentencePart[]): string {
  return parts
    .map((part) => ('ref' in part ? `[${part.segments.map((segment) => segment.text).join('')}]` : part.text))
    .join('');
}

const paymentStatusChange = entry({
  target: { type: 'PAYMENT', id: '134', name: null, email: null },
  parent: DANA,
  eventType: 'PaymentStatusChanged',
  changes: [{ field: 'status', oldValue: 'SUCCESS', newValue: 'FAILED' }],
});

describe('activity-log sentences', () => {
  it('tell days added to a subscription: how many, why, by whom and until when (ADR 0089)', () => {
    const extension = (days: number, reason: string, source: string) =>
      entry({
        target: { type: 'SUBSCRIPTION', id: 's-9', name: 'Gold', email: null },
        parent: DANA,
        eventType: 'SubscriptionExtended',
        changes: [
          { field: 'endDate', oldValue: null, newValue: '2026-03-04T10:00:00.000Z' },
          {
            field: 'extension',
            oldValue: null,
            newValue: { days, reason, source, endDate: '2026-03-04T10:00:00.000Z' },
          },
        ],
      });
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    expect(plain(auditSentence(extension(2, 'Outage on Sunday', 'STAFF'), 'en'))).toMatch(
      /^Subscription Gold of Dana Cohen \(dana@example.com\): \+2 days: Outage on Sunday by Avi Admin, until /,
    );
    expect(plain(auditSentence(extension(1, 'Sorry', 'BULK'), 'he'))).toContain('+יום אחד: Sorry על ידי Avi Admin');
    expect(plain(auditSentence(extension(30, 'Summer 2026', 'VOUCHER'), 'en'))).toContain(
      '+30 days: voucher Summer 2026 by',
    );
    expect(plain(auditSentence(extension(30, 'Summer 2026', 'VOUCHER'), 'he'))).toContain('+30 ימים: שובר Summer 2026');
  });

  it('tell a subscription started with a day voucher: the code’s days and the batch’s label (ADR 0089)', () => {
    const started = entry({
      target: { type: 'SUBSCRIPTION', id: 's-9', name: 'Gold', email: null },
      parent: DANA,
      operationType: 'CREATED',
      eventType: 'SubscriptionPurchased',
      changes: [
        { field: 'planName', oldValue: null, newValue: 'Gold' },
        { field: 'price', oldValue: null, newValue: 0 },
        { field: 'status', oldValue: null, newValue: 'PENDING' },
        { field: 'voucher', oldValue: null, newValue: { days: 30, reason: 'Winter fair', source: 'VOUCHER' } },
      ],
    });
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    expect(plain(auditSentence(started, 'en'))).toBe(
      'Subscription Gold of Dana Cohen (dana@example.com): started with a voucher, +30 days: voucher Winter fair, status Pending',
    );
    expect(plain(auditSentence(started, 'he'))).toContain('נפתח בשובר, +30 ימים: שובר Winter fair, סטטוס');
    const bought = { ...started, changes: started.changes.filter((change) => change.field !== 'voucher') };
    expect(plain(auditSentence(bought, 'en'))).toContain('bought for $0.00, status Pending');
  });

  it('tell a voucher batch by its label: generated, funded, and a code redeemed by its number, never the code', () => {
    const batch = {
      type: 'VOUCHER_BATCH',
      id: '6a1f0c2e-4b52-4bb4-8a8e-3a1d2f0c9e11',
      name: 'Winter fair',
      email: null,
    } as const;
    const generated = entry({
      target: batch,
      operationType: 'CREATED',
      eventType: 'VoucherBatchGenerated',
      changes: [
        { field: 'label', oldValue: null, newValue: 'Winter fair' },
        { field: 'count', oldValue: null, newValue: 3 },
        { field: 'amount', oldValue: null, newValue: 15 },
      ],
    });
    expect(read(auditSentenceParts(generated, 'en'))).toBe(
      '[Voucher batch Winter fair]: 3 vouchers generated, each worth $15.00',
    );
    expect(read(auditSentenceParts(generated, 'he'))).toMatch(
      /^\[סדרת שוברים Winter fair\]: נוצרה סדרה של 3 שוברים, כל אחד בשווי /,
    );
    const funded = (eventType: 'VoucherBatchSold' | 'VoucherBatchGivenAway') =>
      entry({
        target: batch,
        eventType,
        changes: [
          { field: 'amount', oldValue: null, newValue: 45 },
          { field: 'comment', oldValue: null, newValue: 'paid in cash' },
        ],
      });
    expect(read(auditSentenceParts(funded('VoucherBatchSold'), 'en'))).toBe(
      '[Voucher batch Winter fair]: the batch was sold, $45.00 owed to holders (paid in cash)',
    );
    expect(read(auditSentenceParts(funded('VoucherBatchGivenAway'), 'en'))).toBe(
      "[Voucher batch Winter fair]: the batch was given away, $45.00 at the house's cost (paid in cash)",
    );
    expect(read(auditSentenceParts(funded('VoucherBatchGivenAway'), 'he'))).toContain('הסדרה ניתנה במתנה');
    const redeemed = entry({
      target: batch,
      parent: DANA,
      eventType: 'VoucherCodeRedeemed',
      changes: [
        { field: 'codeNumber', oldValue: null, newValue: '#3' },
        { field: 'amount', oldValue: null, newValue: 15 },
        { field: 'payment', oldValue: null, newValue: '#134' },
      ],
    });
    expect(read(auditSentenceParts(redeemed, 'en'))).toBe(
      '[Voucher batch Winter fair]: code #3 redeemed by [Dana Cohen (dana@example.com)], $15.00 as payment #134',
    );
    expect(read(auditSentenceParts(redeemed, 'he'))).toContain('קוד #3 מומש על ידי [Dana Cohen (dana@example.com)]');
    // A batch the API could not name reads by its type and id.
    expect(read([{ ref: 'target', segments: auditRefSegments({ ...batch, name: null }, 'en') }])).toBe(
      '[Voucher batch 6a1f0c2e-4b52-4bb4-8a8e-3a1d2f0c9e11]',
    );
  });

  it('tell a bulk batch by its reason: who started what for how many, and how it ended (ADR 0090)', () => {
    const batch = { type: 'BULK_BATCH', id: 'b-1', name: 'Outage on 28 Nov', email: null } as const;
    const started = (operation: Record<string, unknown>) =>
      entry({
        target: batch,
        operationType: 'CREATED',
        eventType: 'BulkBatchStarted',
        changes: [
          { field: 'reason', oldValue: null, newValue: 'Outage on 28 Nov' },
          { field: 'operation', oldValue: null, newValue: operation },
        ],
      });
    const addDays = { action: 'ADD_DAYS', targetKind: 'SUBSCRIPTION', targetCount: 1234, days: 2, amount: null };
    expect(read(auditSentenceParts(started(addDays), 'en'))).toBe(
      '[Bulk operation Outage on 28 Nov]: started by Avi Admin, +2 days to 1,234 subscriptions',
    );
    expect(read(auditSentenceParts(started(addDays), 'he'))).toBe(
      '[פעולה גורפת Outage on 28 Nov]: הופעלה על ידי Avi Admin, +2 ימים ל-1,234 מנויים',
    );
    const credit = { action: 'GOODWILL_CREDIT', targetKind: 'CLIENT', targetCount: 12, days: null, amount: 5 };
    expect(read(auditSentenceParts(started(credit), 'en'))).toBe(
      '[Bulk operation Outage on 28 Nov]: started by Avi Admin, a goodwill credit of $5.00 to each of 12 clients',
    );
    const block = { action: 'BLOCK', targetKind: 'CLIENT', targetCount: 1, days: null, amount: null };
    expect(read(auditSentenceParts(started(block), 'en'))).toBe(
      '[Bulk operation Outage on 28 Nov]: started by Avi Admin, blocking 1 client',
    );
    expect(read(auditSentenceParts(started(block), 'he'))).toContain('חסימת לקוח אחד');
    const completed = entry({
      target: batch,
      eventType: 'BulkBatchCompleted',
      createdBy: { id: SYSTEM_ACTOR_ID, name: 'SYSTEM' },
      changes: [
        { field: 'doneCount', oldValue: null, newValue: 1230 },
        { field: 'failedCount', oldValue: null, newValue: 4 },
      ],
    });
    expect(read(auditSentenceParts(completed, 'en'))).toBe(
      '[Bulk operation Outage on 28 Nov]: finished, 1,230 done and 4 failed',
    );
    expect(read(auditSentenceParts(completed, 'he'))).toBe(
      '[פעולה גורפת Outage on 28 Nov]: הסתיימה, 1,230 בוצעו ו-4 נכשלו',
    );
  });

  it('tell a broadcast by its subject: who sent it to how many, and when every recipient was handed on (ADR 0091)', () => {
    const broadcast = { type: 'BROADCAST', id: 'c-1', name: 'Maintenance tonight', email: null } as const;
    const sent = entry({
      target: broadcast,
      operationType: 'CREATED',
      eventType: 'BroadcastSent',
      changes: [
        { field: 'subjectHe', oldValue: null, newValue: 'Maintenance tonight' },
        { field: 'recipientCount', oldValue: null, newValue: 1500 },
        { field: 'skippedCount', oldValue: null, newValue: 3 },
      ],
    });
    expect(read(auditSentenceParts(sent, 'en'))).toBe(
      '[Broadcast Maintenance tonight]: sent by Avi Admin to 1,500 clients, 3 of whom had switched announcements off',
    );
    expect(read(auditSentenceParts(sent, 'he'))).toMatch(
      /^\[הודעה לכל הלקוחות Maintenance tonight\]: נשלחה על ידי Avi Admin אל 1,500 לקוחות/,
    );
    // Nobody had switched announcements off: the mapper leaves the count out and the sentence stops at the clients.
    const sentToAll = entry({
      target: broadcast,
      operationType: 'CREATED',
      eventType: 'BroadcastSent',
      changes: [{ field: 'recipientCount', oldValue: null, newValue: 2 }],
    });
    expect(read(auditSentenceParts(sentToAll, 'en'))).toBe(
      '[Broadcast Maintenance tonight]: sent by Avi Admin to 2 clients',
    );
    const handed = entry({
      target: broadcast,
      eventType: 'BroadcastHandedOff',
      changes: [{ field: 'handedCount', oldValue: null, newValue: 1497 }],
    });
    expect(read(auditSentenceParts(handed, 'en'))).toBe(
      '[Broadcast Maintenance tonight]: every recipient handed to the mail outbox (1,497 mails)',
    );
  });

  it('tell a payment status change with the payment number, its client and the status labels', () => {
    expect(read(auditSentenceParts(paymentStatusChange, 'en'))).toBe(
      '[Payment #134] of [Dana Cohen (dana@example.com)]: status Success → Failed',
    );
    // The arrow points from the old value to the new one in Hebrew's reading order too.
    expect(read(auditSentenceParts(paymentStatusChange, 'he'))).toBe(
      '[תשלום #134] של [Dana Cohen (dana@example.com)]: סטטוס הצליח ← נכשל',
    );
  });

  it('isolate names, e-mails and values so they keep their direction in the other language', () => {
    const parts = auditSentenceParts(paymentStatusChange, 'he');
    const target = parts[0] as Extract<SentencePart, { ref: string }>;
    expect(target.ref).toBe('target');
    expect(target.segments).toContainEqual({ text: '#134', isolate: 'ltr' });
    const parent = parts.find((part) => 'ref' in part && part.ref === 'parent') as Extract<
      SentencePart,
      { ref: string }
    >;
    expect(parent.segments).toContainEqual({ text: 'dana@example.com', isolate: 'ltr' });
    expect(parts).toContainEqual({ text: 'נכשל', isolate: 'auto' });
    expect(auditSentence(paymentStatusChange, 'he')).toContain('\u2066#134\u2069');
  });

  it('tell a recorded payment with its type, amount and status', () => {
    const recorded = entry({
      target: { type: 'PAYMENT', id: '7', name: null, email: null },
      parent: DANA,
      operationType: 'CREATED',
      eventType: 'PaymentRecorded',
      changes: [
        { field: 'status', oldValue: null, newValue: 'SUCCESS' },
        { field: 'amount', oldValue: null, newValue: 12.5 },
        { field: 'type', oldValue: null, newValue: 'DEPOSIT' },
      ],
    });
    expect(read(auditSentenceParts(recorded, 'en'))).toBe(
      '[Payment #7] for [Dana Cohen (dana@example.com)]: Deposit of $12.50, status Success',
    );
    // Hebrew writes the dollar sign after the number, across a no-break space.
    expect(read(auditSentenceParts(recorded, 'he'))).toBe(
      '[תשלום #7] עבור [Dana Cohen (dana@example.com)]: הפקדה בסך 12.50\u00a0$, סטטוס הצליח',
    );
  });

  it('tell person events in words, and list the changed fields by their labels', () => {
    const profile = entry({
      eventType: 'UserProfileUpdated',
      changes: [
        { field: 'firstName', oldValue: 'Dana', newValue: 'Dina' },
        { field: 'lastName', oldValue: null, newValue: 'Levi' },
      ],
    });
    expect(read(auditSentenceParts(profile, 'en'))).toBe(
      '[Dana Cohen (dana@example.com)]: profile updated, first name Dana → Dina, last name (empty) → Levi',
    );
    const twoFactor = entry({
      eventType: 'UserTwoFactorReset',
      changes: [{ field: 'twoFactorEnabled', oldValue: true, newValue: false }],
    });
    expect(read(auditSentenceParts(twoFactor, 'he'))).toBe(
      '[Dana Cohen (dana@example.com)]: אימות דו-שלבי אופס על ידי מנהל מערכת',
    );
  });

  it('fall back to the event name when a sentence names a value the entry lacks, and to the operation for unknown events', () => {
    // A profile saved with the same names changes nothing, so "{changes}" has nothing to say.
    const unchanged = entry({ eventType: 'UserProfileUpdated', changes: [] });
    expect(read(auditSentenceParts(unchanged, 'en'))).toBe('[Dana Cohen (dana@example.com)]: Profile updated');
    const unknown = entry({
      eventType: 'PlanArchived',
      operationType: 'DELETED',
      target: { type: 'PACKAGE', id: 'p-1', name: null, email: null },
    });
    expect(read(auditSentenceParts(unknown, 'en'))).toBe('[Package p-1]: deleted');
    expect(read(auditSentenceParts(unknown, 'he'))).toBe('[חבילה p-1]: נמחק');
  });

  it('name a person the API could not name by the type and id', () => {
    const unnamed = { type: 'MANAGER', id: 'u-9', name: null, email: null } as const;
    expect(auditRefSegments(unnamed, 'en').map((segment) => segment.text)).toEqual(['Manager ', 'u-9']);
  });
});

describe('activity-log authors', () => {
  it('call the SYSTEM actor "System" in the page language and people by their recorded name', () => {
    expect(auditActorName({ id: SYSTEM_ACTOR_ID, name: 'SYSTEM' }, 'he')).toBe('המערכת');
    expect(auditActorName({ id: SYSTEM_ACTOR_ID, name: 'SYSTEM' }, 'en')).toBe('System');
    expect(auditActorName({ id: 's-1', name: 'Avi Admin' }, 'he')).toBe('Avi Admin');
  });
});

describe('package entries', () => {
  const gold = { type: 'PACKAGE', id: '44444444-4444-4444-8444-444444444444', name: 'Gold', email: null } as const;

  it('tell a creation with the package by name, its price and status', () => {
    const created = entry({
      target: gold,
      operationType: 'CREATED',
      eventType: 'PaymentPlanCreated',
      changes: [
        { field: 'name', oldValue: null, newValue: 'Gold' },
        { field: 'price', oldValue: null, newValue: 29.99 },
        { field: 'status', oldValue: null, newValue: 'ACTIVE' },
      ],
    });
    expect(read(auditSentenceParts(created, 'en'))).toBe('[Package Gold]: created at $29.99, status Active');
    const price = formatAuditValue(gold, 'price', 29.99, 'he').text;
    expect(read(auditSentenceParts(created, 'he'))).toBe(`[חבילה Gold]: נוצרה במחיר ${price}, סטטוס פעילה`);
  });

  it('name a deleted package by the name its entries recorded', () => {
    const deleted = entry({
      target: { ...gold, nameRecorded: true },
      operationType: 'DELETED',
      eventType: 'PaymentPlanDeleted',
      changes: [{ field: 'price', oldValue: 29.99, newValue: null }],
    });
    expect(read(auditSentenceParts(deleted, 'en'))).toBe('[Package Gold]: deleted');
  });

  it('name a subscription by its package', () => {
    expect(auditRefSegments({ type: 'SUBSCRIPTION', id: 's-1', name: 'Gold', email: null }, 'en')).toEqual([
      { text: 'Subscription ' },
      { text: 'Gold', isolate: 'auto' },
    ]);
  });

  it("name a trial subscription, which no package names, by its type in the reader's language", () => {
    const trial = {
      type: 'SUBSCRIPTION',
      id: 's-2',
      name: 'TRIAL_FOR_NEW_USERS',
      email: null,
      nameRecorded: true,
      nameEnum: 'subscriptionType',
    } as const;
    expect(auditRefSegments(trial, 'en')).toEqual([
      { text: 'Subscription ' },
      { text: 'Trial for new users', isolate: 'auto' },
    ]);
    expect(auditRefSegments(trial, 'he')[1]).toEqual({ text: 'ניסיון למשתמשים חדשים', isolate: 'auto' });
  });

  it('tell provider states and coins in words', () => {
    const payment = { type: 'PAYMENT' } as const;
    expect(formatAuditValue(payment, 'providerStatus', 'partially_paid', 'en').text).toBe(
      CASHIER_PROVIDER_STATUS_LABELS.partially_paid.en,
    );
    expect(formatAuditValue(payment, 'providerStatus', 'unpaid', 'he').text).toBe(
      CARD_PROVIDER_STATUS_LABELS.unpaid.he,
    );
    expect(formatAuditValue(payment, 'payCurrency', 'btc', 'en').text).toBe('Bitcoin');
    expect(formatAuditValue(payment, 'payCurrency', 'usdttrc20', 'he').text).toBe('USDT (TRC20)');
    expect(formatAuditValue(payment, 'provider', 'SANDBOX', 'en').text).toBe('Sandbox (not real money)');
    // A word no catalogue knows is still shown as recorded.
    expect(formatAuditValue(payment, 'payCurrency', 'doge', 'en').text).toBe('doge');
  });

  it('name a deleted package that no entry named by its id', () => {
    const deleted = entry({
      target: { ...gold, name: null },
      operationType: 'DELETED',
      eventType: 'PaymentPlanDeleted',
      changes: [{ field: 'price', oldValue: 29.99, newValue: null }],
    });
    expect(read(auditSentenceParts(deleted, 'en'))).toBe(`[Package ${gold.id}]: deleted`);
  });
});

describe('activity-log fields and values', () => {
  it('label fields per target and keep unknown ones as they are', () => {
    expect(auditFieldLabel({ type: 'CLIENT' }, 'firstName', 'en')).toBe('First name');
    expect(auditFieldLabel({ type: 'CLIENT' }, 'firstName', 'he')).toBe('שם פרטי');
    expect(auditFieldLabel({ type: 'CLIENT' }, 'note.5f1c', 'en')).toBe('Note');
    expect(auditFieldLabel({ type: 'PAYMENT' }, 'aggregator', 'he')).toBe('ספק');
    expect(auditFieldLabel({ type: 'PACKAGE' }, 'isRecurrent', 'en')).toBe('Renews automatically');
    expect(auditFieldLabel({ type: 'SUBSCRIPTION' }, 'name', 'en')).toBe('name');
  });

  it("read a package's duration, price and feature list", () => {
    expect(formatAuditValue({ type: 'PACKAGE' }, 'durationInMonths', 12, 'he').text).toBe('שנתי');
    expect(formatAuditValue({ type: 'PACKAGE' }, 'price', 29.99, 'en')).toEqual({ text: '$29.99', isolate: 'ltr' });
    expect(formatAuditValue({ type: 'PACKAGE' }, 'features', ['HD', 'שני מסכים'], 'en')).toEqual({
      text: 'HD, שני מסכים',
      isolate: 'auto',
    });
    expect(formatAuditValue({ type: 'PACKAGE' }, 'status', 'INACTIVE', 'en').text).toBe('Inactive');
  });

  it('read values by their field: statuses of users and payments differ, amounts, booleans, instants', () => {
    expect(formatAuditValue({ type: 'CLIENT' }, 'status', 'ACTIVE', 'en').text).toBe('Active');
    expect(formatAuditValue({ type: 'PAYMENT' }, 'status', 'TIMEOUT', 'en').text).toBe('Timed out');
    expect(formatAuditValue({ type: 'PAYMENT' }, 'amount', 10, 'en')).toEqual({ text: '$10.00', isolate: 'ltr' });
    expect(formatAuditValue({ type: 'CLIENT' }, 'trialUsed', true, 'he').text).toBe('כן');
    expect(formatAuditValue({ type: 'CLIENT' }, 'language', 'he', 'en').text).toBe('Hebrew');
    expect(formatAuditValue({ type: 'CLIENT' }, 'passwordChangedAt', '2026-03-02T10:00:00.000Z', 'en').text).toMatch(
      /2026/,
    );
    // An instant inside a sentence is one unbreakable piece: no-break spaces, no space a line may end at.
    for (const lang of ['he', 'en'] as const) {
      const instant = formatAuditValue({ type: 'CLIENT' }, 'passwordChangedAt', '2026-12-29T10:00:00.000Z', lang).text;
      expect(instant).toContain('\u00a0');
      expect(instant).not.toContain(' ');
    }
    // A Hebrew date reads right to left around its Hebrew month: isolated by its first strong letter, never as LTR.
    const hebrewInstant = formatAuditValue({ type: 'CLIENT' }, 'passwordChangedAt', '2026-12-29T10:00:00.000Z', 'he');
    expect(hebrewInstant.text).toMatch(/[\u0590-\u05ff]/);
    expect(hebrewInstant.isolate).toBe('auto');
    expect(formatAuditValue({ type: 'CLIENT' }, 'status', null, 'he').text).toBe('(ריק)');
    // A value that does not fit its field, and any value of an unknown field, shows as recorded.
    expect(formatAuditValue({ type: 'PAYMENT' }, 'amount', 'lots', 'en').text).toBe('lots');
    expect(formatAuditValue({ type: 'PACKAGE' }, 'meta', { source: 'x' }, 'en').text).toBe('{"source":"x"}');
  });
});
