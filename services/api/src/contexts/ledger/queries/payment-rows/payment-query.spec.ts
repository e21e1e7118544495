import { SqlParameters } from '../../../../platform/database/sql-parameters';
import {
  checkPaymentDateRange,
  checkPaymentKeyword,
  isBoundedToRecentPayments,
  paymentOrderBy,
  paymentWhere,
} from './payment-query';

describe('paymentOrderBy', () => {
  it('keeps newest first, id as tie-breaker, when nothing narrows an enumerated column to one value', () => {
    expect(paymentOrderBy({})).toBe('p.created_at DESC, p.payment_id DESC');
    expect(paymentOrderBy({ types: ['WITHDRAW', 'DEPOSIT'] })).toBe('p.created_at DESC, p.payment_id DESC');
  });

  it('leads the default order with a column filtered to one value, so its (column, created_at) index serves it', () => {
    expect(paymentOrderBy({ types: ['WITHDRAW'] })).toBe('p.type, p.created_at DESC, p.payment_id DESC');
    expect(paymentOrderBy({ statuses: ['PENDING'], types: ['DEPOSIT'] })).toBe(
      'p.status, p.created_at DESC, p.payment_id DESC',
    );
    expect(paymentOrderBy({ methods: ['CRYPTO_BTC', 'CARD'], aggregators: ['STRIPE'] })).toBe(
      'p.aggregator, p.created_at DESC, p.payment_id DESC',
    );
  });

  it("keeps the plain order for one user's rows, which their own indexes serve newest first", () => {
    const owner = '4b1c2d3e-0000-4000-8000-000000000001';
    expect(paymentOrderBy({ types: ['WITHDRAW'] }, owner)).toBe('p.created_at DESC, p.payment_id DESC');
    expect(paymentOrderBy({ types: ['WITHDRAW'], keyWord: ' Omer@Example.com ' })).toBe(
      'p.created_at DESC, p.payment_id DESC',
    );
    expect(paymentOrderBy({ types: ['WITHDRAW'], keyWord: 'omer' })).toBe(
      'p.type, p.created_at DESC, p.payment_id DESC',
    );
  });

  it('leaves requested sorts as asked', () => {
    expect(paymentOrderBy({ types: ['WITHDRAW'], sorts: [{ id: 'amount', desc: true }] })).toBe(
      'p.amount_minor DESC, p.created_at DESC, p.payment_id DESC',
    );
    expect(paymentOrderBy({ types: ['WITHDRAW'], sorts: [{ id: 'createdAt', desc: false }] })).toBe(
      'p.created_at ASC, p.payment_id ASC',
    );
  });
});

describe('paymentWhere', () => {
  it('filters a single enumerated value with = ANY, which keeps the column in the sort (see paymentOrderBy)', () => {
    const parameters = new SqlParameters();
    expect(paymentWhere({ types: ['WITHDRAW'] }, null, parameters)).toBe('WHERE p.type = ANY($1::text[])');
    expect(parameters.values).toEqual([['WITHDRAW']]);
  });
});

describe('isBoundedToRecentPayments', () => {
  const owner = '4b1c2d3e-0000-4000-8000-000000000001';

  it('bounds a keyword over every client without dates or an id, whatever its length', () => {
    expect(isBoundedToRecentPayments({ keyWord: 'wire from' }, null)).toBe(true);
    expect(isBoundedToRecentPayments({ keyWord: 'q', types: ['WITHDRAW'] }, null)).toBe(true);
  });

  it('leaves alone no keyword, dates (either end), an id, one owner and a whole e-mail address', () => {
    expect(isBoundedToRecentPayments({}, null)).toBe(false);
    expect(isBoundedToRecentPayments({ keyWord: '   ' }, null)).toBe(false);
    expect(isBoundedToRecentPayments({ keyWord: 'wire', createdDate: { from: '2026-01-01' } }, null)).toBe(false);
    expect(isBoundedToRecentPayments({ keyWord: 'wire', createdDate: { to: '2026-01-01' } }, null)).toBe(false);
    expect(isBoundedToRecentPayments({ keyWord: 'wire', id: 42 }, null)).toBe(false);
    expect(isBoundedToRecentPayments({ keyWord: 'wire' }, owner)).toBe(false);
    expect(isBoundedToRecentPayments({ keyWord: 'omer@example.com' }, null)).toBe(false);
    // A short keyword of digits is one payment number; a longer one is a substring like any other.
    expect(isBoundedToRecentPayments({ keyWord: '42' }, null)).toBe(false);
    expect(isBoundedToRecentPayments({ keyWord: '424' }, null)).toBe(true);
  });
});

describe('checkPaymentDateRange', () => {
  const reversed = { details: { fields: [{ field: 'createdDate.to', error: 'error.validation.range.reversed' }] } };

  it('refuses a start after the end', () => {
    expect(() => checkPaymentDateRange({ createdDate: { from: '2026-03-02', to: '2026-03-01' } })).toThrow(
      expect.objectContaining(reversed),
    );
    expect(() =>
      checkPaymentDateRange({ createdDate: { from: '2026-03-01T10:00:01Z', to: '2026-03-01T10:00:00Z' } }),
    ).toThrow(expect.objectContaining(reversed));
  });

  it('accepts one whole day, one instant, and either end alone', () => {
    expect(() => checkPaymentDateRange({ createdDate: { from: '2026-03-01', to: '2026-03-01' } })).not.toThrow();
    const instant = '2026-03-01T10:00:00Z';
    expect(() => checkPaymentDateRange({ createdDate: { from: instant, to: instant } })).not.toThrow();
    expect(() => checkPaymentDateRange({ createdDate: { from: '2026-03-02T10:00:00Z', to: '2026-03-01' } })).toThrow();
    expect(() => checkPaymentDateRange({ createdDate: { from: '2026-03-02' } })).not.toThrow();
    expect(() => checkPaymentDateRange({})).not.toThrow();
  });
});

describe('checkPaymentKeyword', () => {
  const owner = '4b1c2d3e-0000-4000-8000-000000000001';
  const tooShort = {
    details: { fields: [{ field: 'keyWord', error: 'error.validation.min.length', params: { min: 3 } }] },
  };

  it('refuses fewer than three characters over every client, spaces around them not counted', () => {
    expect(() => checkPaymentKeyword({ keyWord: 'q' }, null)).toThrow(expect.objectContaining(tooShort));
    expect(() => checkPaymentKeyword({ keyWord: ' ab ' }, null)).toThrow(expect.objectContaining(tooShort));
  });

  it("accepts three characters, a payment number, no keyword, and anything over one client's rows", () => {
    for (const keyWord of ['abc', 'אבג', '42', '7', '', '   ', undefined])
      expect(() => checkPaymentKeyword({ keyWord }, null)).not.toThrow();
    expect(() => checkPaymentKeyword({ keyWord: 'q' }, owner)).not.toThrow();
  });
});

describe('paymentWhere, keywords', () => {
  it('reads a short keyword of digits over every client as that payment number, and elsewhere as a substring', () => {
    const everyone = new SqlParameters();
    expect(paymentWhere({ keyWord: '42' }, null, everyone)).toBe('WHERE p.payment_id = $1::bigint');
    expect(everyone.values).toEqual(['42']);
    const oneClient = new SqlParameters();
    expect(paymentWhere({ keyWord: '42' }, '4b1c2d3e-0000-4000-8000-000000000001', oneClient)).toContain(
      'p.search_text LIKE $2',
    );
    const longer = new SqlParameters();
    expect(paymentWhere({ keyWord: '424' }, null, longer)).toBe('WHERE p.search_text LIKE $1');
    expect(longer.values).toEqual(['%424%']);
  });
});
