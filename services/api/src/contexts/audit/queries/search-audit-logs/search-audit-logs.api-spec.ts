import type { AuditLog, EventMetadata, Page } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../../platform/clock';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

describe('activity log search', () => {
  let testApp: TestApp;
  const clock = new ManualClock(new Date('2026-05-01T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;
  const paymentId = String(700_000 + Math.floor(Math.random() * 100_000));
  const planId = randomUUID();
  const finance = { id: randomUUID(), email: 'finance@kupa.test', role: 'ADMIN', name: 'Finance Admin' };
  const byFinance = (at: string): EventMetadata => ({
    actor: finance,
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: at,
    ip: null,
  });

  beforeAll(async () => {
    testApp = await startTestApp({ clock });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER', firstName: 'Maya', lastName: 'Manager' });
    clock.set(new Date('2026-05-02T09:00:00Z'));
    client = await createActiveUser(testApp, { firstName: 'Ziv', lastName: 'Bar' });

    // Events of contexts that register no mapper here: the log describes them from their streams.
    const store = testApp.app.get(EventStore);
    await store.append(
      [
        {
          streamId: `payment-${paymentId}`,
          expectedVersion: 0,
          events: [
            {
              type: 'AuditSpecPaymentRecorded',
              data: { paymentId: Number(paymentId), userUuid: client.userUuid, amountMinor: 2500, status: 'PENDING' },
            },
          ],
        },
      ],
      byFinance('2026-05-03T10:00:00.000Z'),
    );
    await store.append(
      [
        {
          streamId: `payment-${paymentId}`,
          expectedVersion: 1,
          events: [{ type: 'AuditSpecPaymentStatusChanged', data: { userUuid: client.userUuid, status: 'SUCCESS' } }],
        },
      ],
      byFinance('2026-05-04T10:00:00.000Z'),
    );
    await store.append(
      [
        {
          streamId: `plan-${planId}`,
          expectedVersion: 0,
          events: [{ type: 'AuditSpecPlanAdded', data: { name: 'Gold' } }],
        },
      ],
      byFinance('2026-05-05T10:00:00.000Z'),
    );
    await store.append(
      [{ streamId: `plan-${planId}`, expectedVersion: 1, events: [{ type: 'AuditSpecPlanDeleted', data: {} }] }],
      byFinance('2026-05-06T10:00:00.000Z'),
    );
  });

  afterAll(async () => {
    await testApp.close();
  });

  const search = (token: string, body: Record<string, unknown>) =>
    testApp.http.post('/api/audit-logs/search').set('Authorization', `Bearer ${token}`).send(body);
  const entries = (response: { body: Page<AuditLog> }) => response.body.content;

  it('finds entries whose target or parent has one of the types, newest first', async () => {
    const payments = await search(manager.accessToken, { targetAndParentTypes: ['PAYMENT'] });
    expect(payments.status).toBe(200);
    expect(entries(payments).map((entry) => [entry.operationType, entry.eventType])).toEqual([
      ['UPDATED', 'AuditSpecPaymentStatusChanged'],
      ['CREATED', 'AuditSpecPaymentRecorded'],
    ]);
    expect(entries(payments)[0]).toMatchObject({
      createdAt: '2026-05-04T10:00:00.000Z',
      createdBy: { id: finance.id, name: 'Finance Admin' },
      // A payment is named by its number (its id); its client by name and e-mail, read through identity.
      target: { type: 'PAYMENT', id: paymentId, name: null, email: null },
      parent: { type: 'CLIENT', id: client.userUuid, name: 'Ziv Bar', email: client.email },
      changes: [{ field: 'status', oldValue: 'PENDING', newValue: 'SUCCESS' }],
    });

    // A payment's parent is its client, so asking for CLIENT also brings the client's payments.
    const clients = await search(manager.accessToken, { targetAndParentTypes: ['CLIENT'], size: 100 });
    const types = entries(clients).map((entry) => entry.target.type);
    expect(types).toContain('CLIENT');
    expect(types).toContain('PAYMENT');
    expect(types).not.toContain('PACKAGE');
    expect(types).not.toContain('MANAGER');
    for (const entry of entries(clients)) {
      expect([entry.target.type, entry.parent?.type]).toContain('CLIENT');
    }
  });

  it('finds entries whose target or parent has one of the ids', async () => {
    const aboutClient = await search(manager.accessToken, { targetAndParentIds: [client.userUuid], size: 100 });
    expect(aboutClient.status).toBe(200);
    const found = entries(aboutClient);
    expect(found.every((entry) => entry.target.id === client.userUuid || entry.parent?.id === client.userUuid)).toBe(
      true,
    );
    expect(found.filter((entry) => entry.target.type === 'PAYMENT')).toHaveLength(2);
    const registration = found.find(
      (entry) => entry.target.id === client.userUuid && entry.operationType === 'CREATED',
    );
    expect(registration?.changes).toContainEqual({ field: 'email', oldValue: null, newValue: client.email });
    expect(JSON.stringify(found)).not.toMatch(/password"|hash/i);

    const both = await search(manager.accessToken, { targetAndParentIds: [planId, manager.userUuid], size: 100 });
    const ids = new Set(entries(both).map((entry) => entry.target.id));
    expect(ids).toEqual(new Set([planId, manager.userUuid]));
  });

  it('filters by operation type and by the creation date range', async () => {
    const deleted = await search(manager.accessToken, { operationTypes: ['DELETED'] });
    expect(entries(deleted).map((entry) => entry.target)).toEqual([
      // Gone from the catalog, the package keeps the name its entries recorded.
      { type: 'PACKAGE', id: planId, name: 'Gold', email: null, nameRecorded: true },
    ]);
    expect(entries(deleted)[0].changes).toEqual([{ field: 'name', oldValue: 'Gold', newValue: null }]);

    const window = await search(manager.accessToken, {
      createdAt: { from: '2026-05-03T00:00:00Z', to: '2026-05-05T10:00:00Z' },
    });
    expect(entries(window).map((entry) => entry.eventType)).toEqual([
      'AuditSpecPlanAdded',
      'AuditSpecPaymentStatusChanged',
      'AuditSpecPaymentRecorded',
    ]);
    const combined = await search(manager.accessToken, {
      createdAt: { from: '2026-05-03T00:00:00Z' },
      targetAndParentTypes: ['PAYMENT', 'PACKAGE'],
      operationTypes: ['CREATED'],
    });
    expect(entries(combined).map((entry) => entry.eventType)).toEqual([
      'AuditSpecPlanAdded',
      'AuditSpecPaymentRecorded',
    ]);
  });

  it('pages within bounds and refuses a page size over the limit', async () => {
    const all = await search(admin, { size: 100 });
    const total = all.body.totalElements;
    expect(total).toBeGreaterThanOrEqual(8);
    const first = await search(admin, { size: 3, page: 0 });
    const second = await search(admin, { size: 3, page: 1 });
    expect(first.body).toMatchObject({ page: 0, size: 3, totalElements: total, totalPages: Math.ceil(total / 3) });
    expect([...entries(first), ...entries(second)].map((entry) => entry.id)).toEqual(
      entries(all)
        .slice(0, 6)
        .map((entry) => entry.id),
    );
    const beyond = await search(admin, { size: 3, page: 1000 });
    expect(entries(beyond)).toEqual([]);

    const tooBig = await search(admin, { size: 101 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.details.fields).toContainEqual({
      field: 'size',
      error: 'error.validation.page.size',
      params: { max: 100 },
    });
    expect((await search(admin, { size: 0 })).status).toBe(400);
    expect((await search(admin, { page: -1 })).status).toBe(400);
  });

  it('sorts by the offered columns and refuses others', async () => {
    const byOperation = await search(admin, { size: 100, sorts: [{ id: 'operationType', desc: false }] });
    const operations = entries(byOperation).map((entry) => entry.operationType);
    expect(operations).toEqual([...operations].sort());
    expect(new Set(operations)).toEqual(new Set(['CREATED', 'UPDATED', 'DELETED']));

    const byTarget = await search(admin, { size: 100, sorts: [{ id: 'targetType', desc: true }] });
    const targets = entries(byTarget).map((entry) => entry.target.type);
    expect(targets).toEqual([...targets].sort().reverse());

    const oldestFirst = await search(admin, { size: 100, sorts: [{ id: 'createdAt', desc: false }] });
    const times = entries(oldestFirst).map((entry) => entry.createdAt);
    expect(times).toEqual([...times].sort());
    expect(times[0] < times[times.length - 1]).toBe(true);

    const bad = await search(admin, { sorts: [{ id: 'changes', desc: false }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('error.validation.failed');
  });

  it('refuses unknown fields and values outside the enums with catalogue codes', async () => {
    const unknownField = await search(admin, { keyWord: 'x' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.details.fields).toContainEqual({
      field: 'keyWord',
      error: 'error.validation.unknown.field',
    });
    expect((await search(admin, { operationTypes: ['ARCHIVED'] })).status).toBe(400);
    expect((await search(admin, { targetAndParentTypes: ['WALLET'] })).status).toBe(400);
    expect((await search(admin, { targetAndParentIds: [42] })).status).toBe(400);
    const badDate = await search(admin, { createdAt: { from: 'yesterday' } });
    expect(badDate.status).toBe(400);
    expect(badDate.body.details.fields).toContainEqual({
      field: 'createdAt.from',
      error: 'error.validation.invalid.format',
    });
  });

  it('logs a staff action on a client with the staff member as its author', async () => {
    clock.set(new Date('2026-05-07T09:00:00Z'));
    const blocked = await testApp.http
      .put(`/api/users/${client.userUuid}/status`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ status: 'BLOCKED' });
    expect(blocked.status).toBe(200);
    const [latest] = entries(await search(admin, { targetAndParentIds: [client.userUuid], size: 1 }));
    expect(latest).toMatchObject({
      createdAt: '2026-05-07T09:00:00.000Z',
      createdBy: { id: manager.userUuid, name: 'Maya Manager' },
      operationType: 'UPDATED',
      target: { type: 'CLIENT', id: client.userUuid, name: 'Ziv Bar', email: client.email },
      changes: [{ field: 'status', oldValue: 'ACTIVE', newValue: 'BLOCKED' }],
    });
    const unblocked = await testApp.http
      .put(`/api/users/${client.userUuid}/status`)
      .set('Authorization', `Bearer ${manager.accessToken}`)
      .send({ status: 'ACTIVE' });
    expect(unblocked.status).toBe(200);
  });

  it('is for admins and managers only', async () => {
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    for (const token of [client.accessToken, ambassador.accessToken]) {
      const searched = await search(token, {});
      expect(searched.status).toBe(403);
      expect(searched.body.error).toBe('error.access.forbidden');
    }
    expect((await testApp.http.post('/api/audit-logs/search').send({})).status).toBe(401);
    expect((await search(admin, {})).status).toBe(200);
  });
});
