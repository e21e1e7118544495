import { SqlParameters } from '../../../../platform/database/sql-parameters';
import { paymentOrderBy, paymentWhere } from './payment-query';

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
