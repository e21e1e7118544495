import { describe, expect, it } from 'vitest';
import type { Receipt } from './receipts';
import { receiptLines } from './receipt-lines';

const deposit: Receipt = {
  number: 1,
  issuedAt: '2026-11-30T06:04:00.000Z',
  kind: 'DEPOSIT',
  method: 'MANUAL_TRANSFER',
  paymentId: 1,
  userUuid: '00000000-0000-4000-8000-000000000001',
  clientName: 'נועה Security',
  clientEmail: 'security.he@example.com',
  profileId: '96013422',
  currency: 'USD',
  amount: 100,
  amountAsked: null,
  listPrice: null,
  discount: 0,
  discountKind: null,
  discountPercent: 0,
  promoCode: null,
  planName: null,
  balanceAfter: 100,
};

describe('receipt lines', () => {
  it('keeps the e-mail and its brackets in one left-to-right isolate beside a Hebrew name', () => {
    // Without it the brackets mirror and the Latin half of the name joins the address: "<Security <security.he@…".
    const client = receiptLines(deposit, 'he').find((line) => line.label === 'לקוח');
    expect(client?.value).toBe('נועה Security \u2066<security.he@example.com>\u2069');
  });

  it('names the address alone when the client has no name', () => {
    const client = receiptLines({ ...deposit, clientName: '' }, 'en').find((line) => line.label === 'Client');
    expect(client?.value).toBe('security.he@example.com');
  });
});
