import { SORTABLE_COLUMNS } from '@kupa/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { PACKAGE, SUBSCRIPTION } from '../test/fixtures';
import { dataProvider } from './data-provider';
import { session } from './session';

const client = {
  userUuid: 'u-1',
  email: 'dana@example.com',
  fullName: 'Dana Levi',
  role: 'CLIENT',
  status: 'ACTIVE',
};

beforeEach(() => {
  session.set({ accessToken: 'token-1', userUuid: 'staff-1', email: 'admin@example.com', userRole: 'ADMIN' });
});

afterEach(() => {
  session.clear();
  vi.unstubAllGlobals();
});

describe('dataProvider.getList', () => {
  it('posts the clients search with a 0-based page, sorts and filters, and reads the page back', async () => {
    const { calls } = mockFetch({
      'POST /api/users/search': () =>
        json(200, { content: [client], page: 2, size: 25, totalElements: 51, totalPages: 3 }),
    });

    const result = await dataProvider.getList('clients', {
      pagination: { page: 3, perPage: 25 },
      sort: { field: 'userCreatedAt', order: 'DESC' },
      filter: {
        keyWord: '  dana ',
        statuses: ['ACTIVE', 'BLOCKED'],
        roles: ['AMBASSADOR'],
        registrationDateFrom: '2026-01-01',
        registrationDateTo: '2026-01-31',
      },
    });

    expect(calls).toHaveLength(1);
    expect(calls[0].headers.get('Authorization')).toBe('Bearer token-1');
    expect(calls[0].credentials).toBe('include');
    expect(calls[0].body).toEqual({
      page: 2,
      size: 25,
      sorts: [{ id: 'userCreatedAt', desc: true }],
      keyWord: 'dana',
      statuses: ['ACTIVE', 'BLOCKED'],
      roles: ['AMBASSADOR'],
      registrationDate: {
        from: new Date('2026-01-01T00:00:00.000').toISOString(),
        to: new Date('2026-01-31T23:59:59.999').toISOString(),
      },
    });
    expect(result.total).toBe(51);
    expect(result.data).toEqual([{ ...client, id: 'u-1' }]);
    expect(result.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  });

  it('shows only clients and ambassadors when no role is chosen, caps the size at 100 and leaves out the id sort', async () => {
    const { calls } = mockFetch({
      'POST /api/users/search': () => json(200, { content: [], page: 0, size: 100, totalElements: 0, totalPages: 0 }),
    });

    await dataProvider.getList('clients', {
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });

    // The users search has no sort by uuid and refuses unknown sort ids, so the API's default order is asked for.
    expect(calls[0].body).toEqual({
      page: 0,
      size: 100,
      sorts: [],
      roles: ['CLIENT', 'AMBASSADOR'],
    });
  });

  it('sends the activity log sort ids the API knows and leaves out the others', async () => {
    const { calls } = mockFetch({
      'POST /api/audit-logs/search': () =>
        json(200, { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0 }),
    });
    const sortsFor = async (field: string) => {
      await dataProvider.getList('activity-log', {
        pagination: { page: 1, perPage: 20 },
        sort: { field, order: 'ASC' },
        filter: {},
      });
      return (calls[calls.length - 1].body as { sorts: unknown }).sorts;
    };

    expect(await sortsFor('target.type')).toEqual([{ id: 'targetType', desc: false }]);
    expect(await sortsFor('operationType')).toEqual([{ id: 'operationType', desc: false }]);
    expect(await sortsFor('createdBy.name')).toEqual([]);
    expect(await sortsFor('id')).toEqual([]);
    expect(await sortsFor('constructor')).toEqual([]);
  });

  it('maps the activity log filters, splitting typed ids into a list of strings', async () => {
    const entry = { id: 'a-1', operationType: 'UPDATED', target: { type: 'CLIENT', id: 'u-1' }, changes: [] };
    const { calls } = mockFetch({
      'POST /api/audit-logs/search': () =>
        json(200, { content: [entry], page: 0, size: 20, totalElements: 1, totalPages: 1 }),
    });

    const result = await dataProvider.getList('activity-log', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: {
        createdAtFrom: '2026-03-01',
        targetAndParentTypes: ['CLIENT', 'PAYMENT'],
        targetAndParentIds: 'u-1, 42  p-7',
        operationTypes: ['UPDATED'],
      },
    });

    expect(calls[0].body).toEqual({
      page: 0,
      size: 20,
      sorts: [{ id: 'createdAt', desc: true }],
      createdAt: { from: new Date('2026-03-01T00:00:00.000').toISOString() },
      targetAndParentTypes: ['CLIENT', 'PAYMENT'],
      targetAndParentIds: ['u-1', '42', 'p-7'],
      operationTypes: ['UPDATED'],
    });
    expect(result.data[0].id).toBe('a-1');
  });

  it('refuses resources that have no API instead of calling an endpoint that does not exist', async () => {
    const { calls } = mockFetch({});
    await expect(
      dataProvider.getList('no-such-resource', {
        pagination: { page: 1, perPage: 20 },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      }),
    ).rejects.toThrow(/no API/);
    expect(calls).toHaveLength(0);
  });
});

const payment = {
  paymentId: 42,
  userUuid: 'u-1',
  userEmail: 'dana@example.com',
  amount: 12.5,
  currency: 'USD',
  status: 'SUCCESS',
  method: 'MANUAL_TRANSFER',
  type: 'DEPOSIT',
  aggregator: 'MANUAL',
};
const onePage = (content: unknown[]) =>
  json(200, { content, page: 0, size: 20, totalElements: content.length, totalPages: 1 });

describe('dataProvider payments', () => {
  it('maps every payments filter and identifies payments by their integer id', async () => {
    const { calls } = mockFetch({ 'POST /api/payments/search': () => onePage([payment]) });

    const result = await dataProvider.getList('payments', {
      pagination: { page: 2, perPage: 50 },
      sort: { field: 'amount', order: 'ASC' },
      filter: {
        keyWord: ' dana ',
        id: ' 42 ',
        statuses: ['PENDING', 'SUCCESS'],
        methods: ['MANUAL_TRANSFER'],
        types: ['DEPOSIT', 'WITHDRAW'],
        aggregators: ['MANUAL'],
        createdDateFrom: '2026-02-01',
        createdDateTo: '2026-02-28',
        promoCode: ' summer10 ',
      },
    });

    expect(calls[0].body).toEqual({
      page: 1,
      size: 50,
      sorts: [{ id: 'amount', desc: false }],
      keyWord: 'dana',
      id: 42,
      statuses: ['PENDING', 'SUCCESS'],
      methods: ['MANUAL_TRANSFER'],
      types: ['DEPOSIT', 'WITHDRAW'],
      aggregators: ['MANUAL'],
      createdDate: {
        from: new Date('2026-02-01T00:00:00.000').toISOString(),
        to: new Date('2026-02-28T23:59:59.999').toISOString(),
      },
      promoCode: 'summer10',
    });
    expect(result.data).toEqual([{ ...payment, id: 42 }]);
  });

  it('pages on without a total when the API says its total is a lower bound (ADR 0125)', async () => {
    const full = Array.from({ length: 20 }, (_, index) => ({ ...payment, paymentId: 100 - index }));
    mockFetch({
      'POST /api/payments/search': () =>
        json(200, { content: full, page: 1, size: 20, totalElements: 5001, totalPages: 251, totalIsLowerBound: true }),
    });
    const params = { pagination: { page: 2, perPage: 20 }, sort: { field: 'id', order: 'DESC' as const }, filter: {} };
    const lowerBound = await dataProvider.getList('payments', params);
    expect(lowerBound.total).toBeUndefined();
    expect(lowerBound.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    expect(lowerBound.data).toHaveLength(20);

    mockFetch({
      'POST /api/payments/search': () =>
        json(200, {
          content: [payment],
          page: 3,
          size: 20,
          totalElements: 5001,
          totalPages: 251,
          totalIsLowerBound: true,
        }),
    });
    const lastPage = await dataProvider.getList('payments', { ...params, pagination: { page: 4, perPage: 20 } });
    expect(lastPage.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  });

  it('leaves out an id that is not a whole number and maps the id sort to paymentId', async () => {
    const { calls } = mockFetch({ 'POST /api/payments/search': () => onePage([]) });
    for (const id of ['4.5', 'abc', '-3', '0']) {
      await dataProvider.getList('payments', {
        pagination: { page: 1, perPage: 20 },
        sort: { field: 'id', order: 'DESC' },
        filter: { id },
      });
    }
    for (const call of calls)
      expect(call.body).toEqual({ page: 0, size: 20, sorts: [{ id: 'paymentId', desc: true }] });
  });

  it("lists one client's payments through POST /api/payments/search/{userUuid} with the same body", async () => {
    const { calls } = mockFetch({ 'POST /api/payments/search/u-1': () => onePage([payment]) });

    const result = await dataProvider.getManyReference('payments', {
      target: 'userUuid',
      id: 'u-1',
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { statuses: ['SUCCESS'] },
    });

    expect(calls[0].body).toEqual({
      page: 0,
      size: 20,
      sorts: [{ id: 'createdAt', desc: true }],
      statuses: ['SUCCESS'],
    });
    expect(result.data[0].id).toBe(42);
  });

  it('reads one payment, changes its status, books a manual payment with its key and reads an account history', async () => {
    const history = {
      account: 'user:u-1',
      asOf: '2026-03-01T10:00:00.000Z',
      balance: 7.5,
      entries: { content: [], page: 0, size: 20, totalElements: 0, totalPages: 0 },
    };
    const { calls } = mockFetch({
      'GET /api/payments/42': () => json(200, payment),
      'PUT /api/payments/42/status': () => json(200, { ...payment, status: 'REJECTED' }),
      'POST /api/payments': () => json(201, { ...payment, paymentId: 43 }),
      'GET /api/ledger/accounts/user%3Au-1/history?asOf=2026-03-01T10%3A00%3A00.000Z&page=1&size=20': () =>
        json(200, history),
    });

    expect((await dataProvider.getOne('payments', { id: 42 })).data.id).toBe(42);
    const updated = await dataProvider.update('payments', {
      id: 42,
      data: { status: 'REJECTED', confirmNegativeBalance: true },
      previousData: { ...payment, id: 42 },
    });
    expect(updated.data).toMatchObject({ id: 42, status: 'REJECTED' });
    await dataProvider.createManualPayment(
      { userUuid: 'u-1', amount: 10, action: 'WITHDRAW', comment: 'Refund by transfer', correction: false },
      'key-1',
    );
    expect(
      await dataProvider.getAccountHistory({ account: 'user:u-1', asOf: history.asOf, page: 1, size: 20 }),
    ).toEqual(history);

    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['GET', '/api/payments/42', undefined],
      ['PUT', '/api/payments/42/status', { status: 'REJECTED', confirmNegativeBalance: true }],
      [
        'POST',
        '/api/payments',
        { userUuid: 'u-1', amount: 10, action: 'WITHDRAW', comment: 'Refund by transfer', correction: false },
      ],
      ['GET', '/api/ledger/accounts/user%3Au-1/history?asOf=2026-03-01T10%3A00%3A00.000Z&page=1&size=20', undefined],
    ]);
    expect(calls[2].headers.get('Idempotency-Key')).toBe('key-1');
  });
});

describe('dataProvider reads and commands', () => {
  it('gets one client by uuid and many with parallel GETs', async () => {
    const { calls } = mockFetch({
      'GET /api/users/u-1': () => json(200, client),
      'GET /api/users/u-2': () => json(200, { ...client, userUuid: 'u-2', email: 'noa@example.com' }),
    });

    const one = await dataProvider.getOne('clients', { id: 'u-1' });
    expect(one.data).toEqual({ ...client, id: 'u-1' });

    const many = await dataProvider.getMany('clients', { ids: ['u-1', 'u-2'] });
    expect(many.data.map((record) => record.id)).toEqual(['u-1', 'u-2']);
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'GET /api/users/u-1',
      'GET /api/users/u-1',
      'GET /api/users/u-2',
    ]);
  });

  it('sends status, role, password and note commands to their endpoints', async () => {
    const note = {
      id: 'n-1',
      userUuid: 'u-1',
      text: 'Called',
      createdAt: '2026-01-01T10:00:00Z',
      createdBy: { id: 's', name: 'Admin' },
    };
    const { calls } = mockFetch({
      'PUT /api/users/u-1/status': () => json(200, { ...client, status: 'BLOCKED' }),
      'PUT /api/users/u-1/role': () => json(200, { ...client, role: 'AMBASSADOR' }),
      'PUT /api/password/users/u-1': () => new Response(null, { status: 204 }),
      'GET /api/users/u-1/notes': () => json(200, [note]),
      'POST /api/users/u-1/notes': () => json(201, note),
      'DELETE /api/users/u-1/notes/n-1': () => new Response(null, { status: 204 }),
    });

    await dataProvider.changeUserStatus('u-1', 'BLOCKED');
    await dataProvider.changeUserRole('u-1', 'AMBASSADOR');
    await dataProvider.setUserPassword('u-1', 'Secret1!x');
    expect(await dataProvider.getNotes('u-1')).toEqual([note]);
    expect(await dataProvider.addNote('u-1', 'Called')).toEqual(note);
    await dataProvider.deleteNote('u-1', 'n-1');

    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['PUT', '/api/users/u-1/status', { status: 'BLOCKED' }],
      ['PUT', '/api/users/u-1/role', { role: 'AMBASSADOR' }],
      ['PUT', '/api/password/users/u-1', { password: 'Secret1!x' }],
      ['GET', '/api/users/u-1/notes', undefined],
      ['POST', '/api/users/u-1/notes', { text: 'Called' }],
      ['DELETE', '/api/users/u-1/notes/n-1', undefined],
    ]);
  });

  it('rejects with the catalogue message in the page language and keeps the server body', async () => {
    mockFetch({
      'GET /api/users/missing': () =>
        json(404, { status: 404, error: 'error.user.not.found', message: 'User not found' }),
    });

    const failure = dataProvider.getOne('clients', { id: 'missing' });
    await expect(failure).rejects.toMatchObject({
      message: 'המשתמש לא נמצא',
      status: 404,
      body: { error: 'error.user.not.found' },
    });
  });
});

const plan = { ...PACKAGE, features: [...PACKAGE.features] };

describe('dataProvider packages', () => {
  it('maps the status and price filters, leaving out a bound that is not a price', async () => {
    const { calls } = mockFetch({ 'POST /api/payment-plans/search': () => onePage([plan]) });
    const result = await dataProvider.getList('packages', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'price', order: 'ASC' },
      filter: { statuses: ['INACTIVE'], priceFrom: ' 10.5 ', priceTo: '1.005' },
    });
    expect(calls[0].body).toEqual({
      page: 0,
      size: 20,
      sorts: [{ id: 'price', desc: false }],
      statuses: ['INACTIVE'],
      price: { from: 10.5 },
    });
    expect(result.data).toEqual([plan]);
    await dataProvider.getList('packages', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'features', order: 'ASC' },
      filter: { priceFrom: '0', priceTo: '99999.99' },
    });
    expect(calls[1].body).toEqual({ page: 0, size: 20, sorts: [], price: { from: 0, to: 99999.99 } });
  });

  it('creates and updates with exactly the fields an admin sets, the typed price as a number', async () => {
    const { calls } = mockFetch({
      'POST /api/payment-plans': () => json(201, plan),
      'PUT /api/payment-plans/p-1': () => json(200, { ...plan, price: 1.5 }),
    });
    const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...request } = plan;
    const created = await dataProvider.create('packages', { data: { ...request, price: '29.99' } });
    expect(created.data).toEqual(plan);
    const updated = await dataProvider.update('packages', {
      id: 'p-1',
      data: { ...plan, price: '1.50', description: null },
      previousData: plan,
    });
    expect(updated.data.price).toBe(1.5);
    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['POST', '/api/payment-plans', request],
      ['PUT', '/api/payment-plans/p-1', { ...request, price: 1.5, description: '' }],
    ]);
  });

  it('deletes with DELETE and answers the record it had, and changes the status with its command', async () => {
    const { calls } = mockFetch({
      'DELETE /api/payment-plans/p-1': () => new Response(null, { status: 204 }),
      'PUT /api/payment-plans/p-1/status': () => json(200, { ...plan, status: 'INACTIVE' }),
    });
    const deleted = await dataProvider.delete('packages', { id: 'p-1', previousData: plan });
    expect(deleted.data).toEqual(plan);
    const changed = await dataProvider.changePlanStatus('p-1', 'INACTIVE');
    expect(changed.status).toBe('INACTIVE');
    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['DELETE', '/api/payment-plans/p-1', undefined],
      ['PUT', '/api/payment-plans/p-1/status', { status: 'INACTIVE' }],
    ]);
  });
});

describe('dataProvider subscriptions', () => {
  it('maps every subscriptions filter of the list into the search body, dates as local-day instants', async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => onePage([SUBSCRIPTION]) });
    const result = await dataProvider.getList('subscriptions', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'endDate', order: 'DESC' },
      filter: {
        id: ' 5b0f, 7c1e ',
        statuses: ['ACTIVE', 'PENDING'],
        types: ['REGULAR'],
        durationsInMonths: ['3', '12', '7'],
        userUuid: 'u-1',
        priceFrom: '5',
        priceTo: '29.99',
        startDateFrom: '2026-03-01',
        startDateTo: '2026-03-31',
        endDateFrom: '2026-04-01',
        endDateTo: '2026-04-30',
        createdAtFrom: '2026-02-01',
        createdAtTo: '2026-02-28',
      },
    });
    const day = (date: string, time: string) => new Date(`${date}T${time}`).toISOString();
    expect(calls[0].body).toEqual({
      page: 1,
      size: 25,
      sorts: [{ id: 'endDate', desc: true }],
      ids: ['5b0f', '7c1e'],
      statuses: ['ACTIVE', 'PENDING'],
      types: ['REGULAR'],
      // A duration no package has is left out rather than refused by the API.
      durationsInMonths: [3, 12],
      userUuid: 'u-1',
      price: { from: 5, to: 29.99 },
      startDate: { from: day('2026-03-01', '00:00:00.000'), to: day('2026-03-31', '23:59:59.999') },
      endDate: { from: day('2026-04-01', '00:00:00.000'), to: day('2026-04-30', '23:59:59.999') },
      createdAt: { from: day('2026-02-01', '00:00:00.000'), to: day('2026-02-28', '23:59:59.999') },
    });
    expect(result.data[0].id).toBe(SUBSCRIPTION.id);
  });

  it('sends exactly the sorts proto lists for subscriptions and leaves out any other', async () => {
    const { calls } = mockFetch({ 'POST /api/subscriptions/search': () => onePage([]) });
    for (const field of SORTABLE_COLUMNS.subscriptions)
      await dataProvider.getList('subscriptions', {
        pagination: { page: 1, perPage: 20 },
        sort: { field, order: 'ASC' },
        filter: {},
      });
    await dataProvider.getList('subscriptions', {
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'login', order: 'ASC' },
      filter: { priceFrom: 'cheap' },
    });
    expect(calls.map((call) => (call.body as { sorts: { id: string }[] }).sorts.map((sort) => sort.id))).toEqual([
      ...SORTABLE_COLUMNS.subscriptions.map((id) => [id]),
      [],
    ]);
    expect(calls[calls.length - 1].body).toEqual({ page: 0, size: 20, sorts: [] });
  });

  it("lists a client's subscriptions through the search with their userUuid, and reads one by id", async () => {
    const { calls } = mockFetch({
      'POST /api/subscriptions/search': () => onePage([SUBSCRIPTION]),
      [`GET /api/subscriptions/${SUBSCRIPTION.id}`]: () => json(200, SUBSCRIPTION),
    });
    await dataProvider.getManyReference('subscriptions', {
      target: 'userUuid',
      id: 'u-1',
      pagination: { page: 1, perPage: 20 },
      sort: { field: 'createdAt', order: 'DESC' },
      filter: {},
    });
    const one = await dataProvider.getOne('subscriptions', { id: SUBSCRIPTION.id });
    expect(one.data).toEqual({ ...SUBSCRIPTION });
    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      [
        'POST',
        '/api/subscriptions/search',
        { page: 0, size: 20, sorts: [{ id: 'createdAt', desc: true }], userUuid: 'u-1' },
      ],
      ['GET', `/api/subscriptions/${SUBSCRIPTION.id}`, undefined],
    ]);
  });

  it('sends the login, password and cancel commands and reads the dashboard', async () => {
    const id = SUBSCRIPTION.id;
    const { calls } = mockFetch({
      [`PUT /api/subscriptions/${id}/login`]: () => json(200, { ...SUBSCRIPTION, login: 'new.login' }),
      [`PUT /api/subscriptions/${id}/password`]: () => new Response(null, { status: 204 }),
      [`DELETE /api/subscriptions/${id}`]: () => json(200, { ...SUBSCRIPTION, cancelAtPeriodEnd: true }),
      'GET /api/dashboard': () => json(200, { activeSubscriptions: 3 }),
    });
    await dataProvider.changeSubscriptionLogin(id, 'new.login');
    await dataProvider.changeSubscriptionPassword(id, 's3cret!');
    await dataProvider.cancelSubscription(id);
    expect((await dataProvider.getDashboard()).activeSubscriptions).toBe(3);
    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['PUT', `/api/subscriptions/${id}/login`, { login: 'new.login' }],
      ['PUT', `/api/subscriptions/${id}/password`, { password: 's3cret!' }],
      ['DELETE', `/api/subscriptions/${id}`, undefined],
      ['GET', '/api/dashboard', undefined],
    ]);
  });
});
