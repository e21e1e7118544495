import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
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
      'POST /api/users/search': () => json(200, { content: [client], page: 2, size: 25, totalElements: 51, totalPages: 3 }),
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

  it('shows only clients and ambassadors when no role is chosen, caps the size at 100 and maps the id sort', async () => {
    const { calls } = mockFetch({
      'POST /api/users/search': () => json(200, { content: [], page: 0, size: 100, totalElements: 0, totalPages: 0 }),
    });

    await dataProvider.getList('clients', {
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });

    expect(calls[0].body).toEqual({
      page: 0,
      size: 100,
      sorts: [{ id: 'userUuid', desc: false }],
      roles: ['CLIENT', 'AMBASSADOR'],
    });
  });

  it('maps the activity log filters, splitting typed ids into a list of strings', async () => {
    const entry = { id: 'a-1', operationType: 'UPDATED', target: { type: 'CLIENT', id: 'u-1' }, changes: [] };
    const { calls } = mockFetch({
      'POST /api/audit-logs/search': () => json(200, { content: [entry], page: 0, size: 20, totalElements: 1, totalPages: 1 }),
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
      dataProvider.getList('payments', { pagination: { page: 1, perPage: 20 }, sort: { field: 'id', order: 'ASC' }, filter: {} }),
    ).rejects.toThrow(/no API/);
    expect(calls).toHaveLength(0);
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
    const note = { id: 'n-1', userUuid: 'u-1', text: 'Called', createdAt: '2026-01-01T10:00:00Z', createdBy: { id: 's', name: 'Admin' } };
    const { calls } = mockFetch({
      'PUT /api/users/u-1/status': () => json(200, { ...client, status: 'BLOCKED' }),
      'PUT /api/users/u-1/role': () => json(200, { ...client, role: 'AMBASSADOR' }),
      'PUT /api/password/users/u-1': () => new Response(null, { status: 204 }),
      'GET /api/users/notes/u-1': () => json(200, [note]),
      'POST /api/users/notes/u-1': () => json(201, note),
      'DELETE /api/users/notes/n-1': () => new Response(null, { status: 204 }),
    });

    await dataProvider.changeUserStatus('u-1', 'BLOCKED');
    await dataProvider.changeUserRole('u-1', 'AMBASSADOR');
    await dataProvider.setUserPassword('u-1', 'Secret1!x');
    expect(await dataProvider.getNotes('u-1')).toEqual([note]);
    expect(await dataProvider.addNote('u-1', 'Called')).toEqual(note);
    await dataProvider.deleteNote('n-1');

    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['PUT', '/api/users/u-1/status', { status: 'BLOCKED' }],
      ['PUT', '/api/users/u-1/role', { role: 'AMBASSADOR' }],
      ['PUT', '/api/password/users/u-1', { password: 'Secret1!x' }],
      ['GET', '/api/users/notes/u-1', undefined],
      ['POST', '/api/users/notes/u-1', { text: 'Called' }],
      ['DELETE', '/api/users/notes/n-1', undefined],
    ]);
  });

  it('rejects with the catalogue message in the page language and keeps the server body', async () => {
    mockFetch({
      'GET /api/users/missing': () => json(404, { status: 404, error: 'error.user.not.found', message: 'User not found' }),
    });

    const failure = dataProvider.getOne('clients', { id: 'missing' });
    await expect(failure).rejects.toMatchObject({
      message: 'המשתמש לא נמצא',
      status: 404,
      body: { error: 'error.user.not.found' },
    });
  });
});
