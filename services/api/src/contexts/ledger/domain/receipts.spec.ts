import { receiptFactsOf, type ReceiptEvent } from './receipts';

const transaction = { transactionId: '5b0d6a70-8c3e-4b47-9d5e-6d1f1c0e9a01', postings: [] };
const userUuid = '0f8e6f43-5f3f-4f6e-8d6a-0d0b3c4f1a22';

function purchased(overrides: Partial<Extract<ReceiptEvent, { type: 'SubscriptionPurchased' }>['data']>): ReceiptEvent {
  return {
    type: 'SubscriptionPurchased',
    data: {
      subscriptionId: 's-1',
      userUuid,
      userEmail: 'dana@example.com',
      type: 'REGULAR',
      planId: 'p-1',
      planName: 'Premium HD',
      durationInMonths: 1,
      trialDays: null,
      priceMinor: 900,
      listPriceMinor: 1000,
      discountPercent: 10,
      currency: 'USD',
      isRecurrent: true,
      login: 'tv.dana',
      paymentId: 42,
      purchasedAt: '2026-11-30T10:00:00.000Z',
      ...overrides,
    },
  } as ReceiptEvent;
}

describe('receipts: which events earn one and what it says (docs/product.md, Receipts)', () => {
  it('given a crypto credit, the receipt is a deposit of what this credit brought, with its transaction', () => {
    const facts = receiptFactsOf({
      type: 'CashierDepositCredited',
      data: { userUuid, paymentId: 7, providerPaymentId: 'np-1', amountMinor: 2500, transaction },
    });
    expect(facts).toMatchObject({
      kind: 'DEPOSIT',
      paymentId: 7,
      amountMinor: 2500,
      transactionId: transaction.transactionId,
      voucher: false,
      discountMinor: 0,
    });
  });

  it('given a voucher redemption, the receipt says so without reading the payment', () => {
    const facts = receiptFactsOf({
      type: 'VoucherRedeemed',
      data: { userUuid, paymentId: 8, batchId: 'b-1', codeIndex: 3, amountMinor: 1000, transaction },
    });
    expect(facts).toMatchObject({ kind: 'DEPOSIT', voucher: true, amountMinor: 1000 });
  });

  it('given a purchase with the referral discount, the discount is the referral one with its percent', () => {
    expect(receiptFactsOf(purchased({}))).toMatchObject({
      kind: 'PURCHASE',
      amountMinor: 900,
      listPriceMinor: 1000,
      discountMinor: 100,
      discountKind: 'REFERRAL',
      discountPercent: 10,
      planName: 'Premium HD',
    });
  });

  it('given a purchase a promo code discounted (no referral percent), the discount is the promo code one', () => {
    expect(receiptFactsOf(purchased({ discountPercent: 0, priceMinor: 750 }))).toMatchObject({
      discountMinor: 250,
      discountKind: 'PROMO_CODE',
    });
  });

  it('given a trial or a package a voucher paid (no payment, no price), there is no receipt', () => {
    expect(receiptFactsOf(purchased({ paymentId: null, priceMinor: 0 }))).toBeNull();
  });

  it('given a renewal at the list price, the receipt is a renewal with no discount', () => {
    const facts = receiptFactsOf({
      type: 'SubscriptionRenewed',
      data: {
        subscriptionId: 's-1',
        userUuid,
        paymentId: 43,
        priceMinor: 1000,
        listPriceMinor: 1000,
        discountPercent: 0,
        previousEndDate: '2026-12-30T10:00:00.000Z',
        endDate: '2027-01-30T10:00:00.000Z',
        renewedAt: '2026-12-29T10:00:00.000Z',
        automatic: true,
      },
    });
    expect(facts).toMatchObject({ kind: 'RENEWAL', amountMinor: 1000, discountMinor: 0, discountKind: null });
  });
});
