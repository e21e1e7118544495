import { createHmac } from 'node:crypto';
import { ipnSignature, isValidIpnSignature } from './nowpayments';

/** An IPN as NOWPayments sends it, keys in its own order, with the nested `fee` object. */
const IPN_BODY = {
  payment_id: 5077125051,
  invoice_id: 4522625843,
  payment_status: 'finished',
  pay_address: 'TNDFkiSmBQorNFacb3735q8MnT29LmNSUs',
  price_amount: 50,
  price_currency: 'usd',
  pay_amount: 50.123456,
  actually_paid: 50.123456,
  pay_currency: 'usdttrc20',
  order_id: '42',
  order_description: 'Kupa deposit 42',
  purchase_id: '5837122679',
  outcome_amount: 49.1,
  outcome_currency: 'usdttrc20',
  fee: { currency: 'usdttrc20', depositFee: 0.5, withdrawalFee: 0, serviceFee: 0.523456 },
  created_at: '2026-03-01T10:00:00.000Z',
  updated_at: '2026-03-01T10:05:00.000Z',
};
const SECRET = 'kupa-ipn-test-secret';

/** The recursive form other integrations use: sort every object's keys, then plain `JSON.stringify`. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => [key, sortedDeep((value as Record<string, unknown>)[key])]),
  );
}

describe('NOWPayments IPN signature', () => {
  it('is the pinned hex HMAC-SHA512 of the body with keys sorted at every depth', () => {
    // Computed independently with Python (`json.dumps(body, separators=(',', ':'), sort_keys=True)`, then
    // `hmac.new(secret, text, hashlib.sha512).hexdigest()`) and pinned here.
    const sortedText =
      '{"actually_paid":50.123456,"created_at":"2026-03-01T10:00:00.000Z","fee":{"currency":"usdttrc20","depositFee":0.5,' +
      '"serviceFee":0.523456,"withdrawalFee":0},"invoice_id":4522625843,"order_description":"Kupa deposit 42",' +
      '"order_id":"42","outcome_amount":49.1,"outcome_currency":"usdttrc20","pay_address":"TNDFkiSmBQorNFacb3735q8MnT29LmNSUs",' +
      '"pay_amount":50.123456,"pay_currency":"usdttrc20","payment_id":5077125051,"payment_status":"finished",' +
      '"price_amount":50,"price_currency":"usd","purchase_id":"5837122679","updated_at":"2026-03-01T10:05:00.000Z"}';
    expect(JSON.stringify(sortedDeep(IPN_BODY))).toBe(sortedText);
    expect(ipnSignature(IPN_BODY, SECRET)).toBe(PINNED_SIGNATURE);
    expect(createHmac('sha512', SECRET).update(sortedText).digest('hex')).toBe(PINNED_SIGNATURE);
  });

  it('differs from the top-level-only form, which drops the members of `fee`', () => {
    const topLevelOnly = JSON.stringify(IPN_BODY, Object.keys(IPN_BODY).sort());
    expect(topLevelOnly).toContain('"fee":{}');
    expect(createHmac('sha512', SECRET).update(topLevelOnly).digest('hex')).not.toBe(PINNED_SIGNATURE);
  });

  it('accepts the signature in any key order and either case, and nothing else', () => {
    const reordered = Object.fromEntries(Object.entries(IPN_BODY).reverse());
    expect(isValidIpnSignature(reordered, PINNED_SIGNATURE, SECRET)).toBe(true);
    expect(isValidIpnSignature(IPN_BODY, PINNED_SIGNATURE.toUpperCase(), SECRET)).toBe(true);
    expect(isValidIpnSignature({ ...IPN_BODY, actually_paid: 60 }, PINNED_SIGNATURE, SECRET)).toBe(false);
    expect(
      isValidIpnSignature({ ...IPN_BODY, fee: { ...IPN_BODY.fee, serviceFee: 0 } }, PINNED_SIGNATURE, SECRET),
    ).toBe(false);
    expect(isValidIpnSignature(IPN_BODY, PINNED_SIGNATURE, 'another-secret')).toBe(false);
    expect(isValidIpnSignature(IPN_BODY, undefined, SECRET)).toBe(false);
    expect(isValidIpnSignature(IPN_BODY, PINNED_SIGNATURE.slice(2), SECRET)).toBe(false);
    expect(isValidIpnSignature({ text: '\ud800' }, PINNED_SIGNATURE, SECRET)).toBe(false);
  });
});

const PINNED_SIGNATURE =
  'f5a6ad3157a831e1860674765282be5fc25a0a558bf1246a9fdfc143ca8e5826f960bfaf2ee08c46285af747b9280d4d5b8ee62c0d5fdd0741a9da680241db60';
