import { LIMITS } from '@kupa/proto';
import { hasFilters, parsePaymentsSearch, toPaymentSearchRequest } from './payments-search';

describe('payments search params', () => {
  it('keeps what the server accepts and drops what it would refuse', () => {
    expect(
      parsePaymentsSearch({
        page: -1,
        size: 1000,
        sorts: [
          { id: 'amount', desc: 'true' },
          { id: 'amount', desc: false },
          { id: 'comment', desc: true },
          { id: 'constructor', desc: true },
          'createdAt',
        ],
        keyWord: 2024,
        id: '0017',
        statuses: 'SUCCESS',
        methods: ['CARD', 'CASH'],
        types: [],
        aggregators: ['STRIPE', 'STRIPE'],
        createdDate: { from: '2026-13-45', to: 'yesterday' },
      }),
    ).toEqual({
      size: LIMITS.pageSizeMax,
      sorts: [{ id: 'amount', desc: true }],
      keyWord: '2024',
      id: 17,
      statuses: ['SUCCESS'],
      methods: ['CARD'],
      aggregators: ['STRIPE'],
    });
  });

  it('refuses a payment id that is not a positive whole number', () => {
    for (const id of [0, -3, 1.5, '12a', 'abc', Number.MAX_SAFE_INTEGER + 2])
      expect(parsePaymentsSearch({ id })).toEqual({});
  });

  it('cuts an overlong keyword to the server limit', () => {
    const { keyWord } = parsePaymentsSearch({ keyWord: `  ${'x'.repeat(300)}  ` });
    expect(keyWord).toHaveLength(LIMITS.keywordMaxLength);
  });

  it('passes full instants through and widens calendar days to whole days', () => {
    const request = toPaymentSearchRequest({ createdDate: { from: '2026-03-01T10:00:00.000Z', to: '2026-03-02' } });
    expect(request.createdDate).toEqual({
      from: '2026-03-01T10:00:00.000Z',
      to: new Date(2026, 2, 2, 23, 59, 59, 999).toISOString(),
    });
    expect(hasFilters({ page: 3, sorts: [{ id: 'type', desc: false }] })).toBe(false);
    expect(hasFilters({ createdDate: { to: '2026-03-02' } })).toBe(true);
  });
});
