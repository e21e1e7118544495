import type { EventMetadata } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { eventMetadata, systemContext } from '../../../../platform/auth';
import { COMMIT_OF_EVENT, EventStore, type RecordedEvent } from '../../../../platform/event-store';
import { InlineProjectionRegistry, type Processor, ProcessorRunner } from '../../../../platform/projections';
import { eventually } from '../../../../test-support/eventually';
import { activityLogCaughtUp, startTestApp, type TestApp } from '../../../../test-support/test-app';
import { AuditMapperRegistry, keptOutOfTheLog } from '../../audit-mapper';
import { AUDIT_LOG_PROJECTION_NAME, AuditLogProcessor, type AuditLogProjection } from './audit-log.projection';

interface PackageEventData {
  planId: string;
  name?: string;
  price?: number;
  status?: string;
}

interface AuditRow {
  id: string;
  created_at: Date;
  created_by_id: string;
  created_by_name: string;
  operation_type: string;
  target_type: string;
  target_id: string;
  parent_type: string | null;
  parent_id: string | null;
  changes: unknown;
  event_type: string;
  stream_id: string;
  global_position: string;
}

describe('audit log projection', () => {
  let testApp: TestApp;
  let store: EventStore;
  const admin = {
    actor: { userUuid: randomUUID(), email: 'dana@kupa.test', role: 'ADMIN' as const, name: 'Dana Admin' },
    ip: '127.0.0.1',
    correlationId: 'audit-spec',
  };
  const byAdmin = (at: string): EventMetadata => eventMetadata(admin, new Date(at));

  // The log is written after the commit by its processor (docs/adr/0126): every read waits for it first.
  const rowsFor = async (targetId: string): Promise<AuditRow[]> => {
    await activityLogCaughtUp(testApp);
    return testApp.dataSource.query('SELECT * FROM audit_logs WHERE target_id = $1 ORDER BY global_position, id', [
      targetId,
    ]);
  };
  const statesFor = async (targetId: string): Promise<Array<{ target_kind: string; fields: unknown }>> => {
    await activityLogCaughtUp(testApp);
    return testApp.dataSource.query('SELECT * FROM audit_target_states WHERE target_id = $1', [targetId]);
  };
  let mapperExplodes = false;

  beforeAll(async () => {
    testApp = await startTestApp();
    store = testApp.app.get(EventStore);
    const mappers = testApp.app.get(AuditMapperRegistry);
    const packageEntry = (operationType: 'CREATED' | 'UPDATED' | 'DELETED') => (event: RecordedEvent) => {
      const { planId, ...fields } = event.data as PackageEventData;
      return { targetType: 'PACKAGE' as const, targetId: planId, parent: null, operationType, fields };
    };
    mappers.register('AuditSpecPackageCreated', packageEntry('CREATED'));
    mappers.register('AuditSpecPackageUpdated', packageEntry('UPDATED'));
    mappers.register('AuditSpecPackageDeleted', packageEntry('DELETED'));
    mappers.register('AuditSpecPersonRoleSet', (event) => {
      const data = event.data as { userUuid: string; role: 'CLIENT' | 'MANAGER' };
      return {
        targetType: data.role,
        targetId: data.userUuid,
        parent: null,
        operationType: 'UPDATED',
        fields: { role: data.role },
      };
    });
    mappers.register('AuditSpecIgnored', () => null);
    mappers.register('AuditSpecKeptOut', keptOutOfTheLog);
    mappers.register('AuditSpecExploding', () => {
      if (mapperExplodes) throw new Error('mapper bug');
      return null;
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('logs CREATED, then UPDATED with exactly the changed fields before and after, then DELETED', async () => {
    const planId = randomUUID();
    const streamId = `plan-${planId}`;
    await store.append(
      [
        {
          streamId,
          expectedVersion: 0,
          events: [{ type: 'AuditSpecPackageCreated', data: { planId, name: 'Gold', price: 30, status: 'ACTIVE' } }],
        },
      ],
      byAdmin('2026-04-01T10:00:00Z'),
    );
    await store.append(
      [
        {
          streamId,
          expectedVersion: 1,
          events: [{ type: 'AuditSpecPackageUpdated', data: { planId, name: 'Gold', price: 35, status: 'ACTIVE' } }],
        },
      ],
      byAdmin('2026-04-02T10:00:00Z'),
    );
    await store.append(
      [{ streamId, expectedVersion: 2, events: [{ type: 'AuditSpecPackageDeleted', data: { planId } }] }],
      byAdmin('2026-04-03T10:00:00Z'),
    );

    const rows = await rowsFor(planId);
    expect(rows.map((row) => row.operation_type)).toEqual(['CREATED', 'UPDATED', 'DELETED']);
    expect(rows[0]).toMatchObject({
      created_at: new Date('2026-04-01T10:00:00Z'),
      created_by_id: admin.actor.userUuid,
      created_by_name: 'Dana Admin',
      target_type: 'PACKAGE',
      parent_type: null,
      event_type: 'AuditSpecPackageCreated',
      stream_id: streamId,
    });
    expect(rows[0].changes).toEqual([
      { field: 'name', oldValue: null, newValue: 'Gold' },
      { field: 'price', oldValue: null, newValue: 30 },
      { field: 'status', oldValue: null, newValue: 'ACTIVE' },
    ]);
    expect(rows[1].changes).toEqual([{ field: 'price', oldValue: 30, newValue: 35 }]);
    expect(rows[2].changes).toEqual([
      { field: 'name', oldValue: 'Gold', newValue: null },
      { field: 'price', oldValue: 35, newValue: null },
      { field: 'status', oldValue: 'ACTIVE', newValue: null },
    ]);
    expect(await statesFor(planId)).toEqual([]);
  });

  it('diffs several events of one append in order, and writes them all at once', async () => {
    const planId = randomUUID();
    await store.append(
      [
        {
          streamId: `plan-${planId}`,
          expectedVersion: 0,
          events: [
            { type: 'AuditSpecPackageCreated', data: { planId, name: 'Silver', price: 10, status: 'ACTIVE' } },
            { type: 'AuditSpecPackageUpdated', data: { planId, status: 'INACTIVE' } },
            { type: 'AuditSpecIgnored', data: { planId } },
            { type: 'AuditSpecPackageUpdated', data: { planId, status: 'INACTIVE' } },
          ],
        },
      ],
      byAdmin('2026-04-04T10:00:00Z'),
    );
    const rows = await rowsFor(planId);
    expect(rows.map((row) => [row.operation_type, row.changes])).toEqual([
      [
        'CREATED',
        [
          { field: 'name', oldValue: null, newValue: 'Silver' },
          { field: 'price', oldValue: null, newValue: 10 },
          { field: 'status', oldValue: null, newValue: 'ACTIVE' },
        ],
      ],
      ['UPDATED', [{ field: 'status', oldValue: 'ACTIVE', newValue: 'INACTIVE' }]],
      ['UPDATED', []],
    ]);
  });

  it('keeps one state per person across target types, so a role change shows the old role', async () => {
    const userUuid = randomUUID();
    const streamId = `user-${userUuid}`;
    await store.append(
      [
        {
          streamId,
          expectedVersion: 'any',
          events: [{ type: 'AuditSpecPersonRoleSet', data: { userUuid, role: 'CLIENT' } }],
        },
      ],
      byAdmin('2026-04-05T10:00:00Z'),
    );
    await store.append(
      [
        {
          streamId,
          expectedVersion: 'any',
          events: [{ type: 'AuditSpecPersonRoleSet', data: { userUuid, role: 'MANAGER' } }],
        },
      ],
      byAdmin('2026-04-05T11:00:00Z'),
    );
    const rows = await rowsFor(userUuid);
    expect(rows.map((row) => [row.target_type, row.changes])).toEqual([
      ['CLIENT', [{ field: 'role', oldValue: null, newValue: 'CLIENT' }]],
      ['MANAGER', [{ field: 'role', oldValue: 'CLIENT', newValue: 'MANAGER' }]],
    ]);
  });

  it('names the SYSTEM actor for events the system made', async () => {
    const planId = randomUUID();
    await store.append(
      [
        {
          streamId: `plan-${planId}`,
          expectedVersion: 0,
          events: [{ type: 'AuditSpecPackageCreated', data: { planId, name: 'Trial' } }],
        },
      ],
      eventMetadata(systemContext(), new Date('2026-04-06T10:00:00Z')),
    );
    const [row] = await rowsFor(planId);
    expect(row).toMatchObject({
      created_by_id: 'USER-00000000-0000-0000-0000-000000000000',
      created_by_name: 'SYSTEM',
    });
  });

  it('still logs an event nobody mapped, described from its stream, without secrets', async () => {
    const subscriptionId = randomUUID();
    const userUuid = randomUUID();
    await store.append(
      [
        {
          streamId: `subscription-${subscriptionId}`,
          expectedVersion: 0,
          events: [
            {
              type: 'AuditSpecSubscriptionProvisioned',
              data: {
                subscriptionId,
                userUuid,
                login: 'viewer.one',
                password: 'Secret-1!',
                provider: { accessToken: 'tok', region: 'eu' },
              },
            },
          ],
        },
      ],
      byAdmin('2026-04-07T10:00:00Z'),
    );
    const [row] = await rowsFor(subscriptionId);
    expect(row).toMatchObject({
      operation_type: 'CREATED',
      target_type: 'SUBSCRIPTION',
      parent_type: 'CLIENT',
      parent_id: userUuid,
      event_type: 'AuditSpecSubscriptionProvisioned',
    });
    expect(row.changes).toEqual([
      { field: 'login', oldValue: null, newValue: 'viewer.one' },
      { field: 'provider', oldValue: null, newValue: { region: 'eu' } },
      { field: 'subscriptionId', oldValue: null, newValue: subscriptionId },
      { field: 'userUuid', oldValue: null, newValue: userUuid },
    ]);
    expect(JSON.stringify(row.changes)).not.toMatch(/Secret-1!|tok/);
  });

  it('writes no entry when the append fails on a version conflict', async () => {
    const planId = randomUUID();
    const otherPlanId = randomUUID();
    await store.append(
      [
        {
          streamId: `plan-${planId}`,
          expectedVersion: 0,
          events: [{ type: 'AuditSpecPackageCreated', data: { planId, name: 'Bronze' } }],
        },
      ],
      byAdmin('2026-04-08T10:00:00Z'),
    );
    const conflicting = store.append(
      [
        {
          streamId: `plan-${otherPlanId}`,
          expectedVersion: 0,
          events: [{ type: 'AuditSpecPackageCreated', data: { planId: otherPlanId, name: 'Never' } }],
        },
        {
          streamId: `plan-${planId}`,
          expectedVersion: 0,
          events: [{ type: 'AuditSpecPackageUpdated', data: { planId, name: 'Never' } }],
        },
      ],
      byAdmin('2026-04-08T11:00:00Z'),
    );
    await expect(conflicting).rejects.toThrow();

    expect(await rowsFor(otherPlanId)).toEqual([]);
    expect((await rowsFor(planId)).map((row) => row.operation_type)).toEqual(['CREATED']);
    const [state] = await statesFor(planId);
    expect(state.fields).toEqual({ name: 'Bronze' });
  });

  it('holds the log back while a mapper fails, the append committed, and loses no entry once it answers', async () => {
    const planId = randomUUID();
    const runner = testApp.app.get(ProcessorRunner);
    mapperExplodes = true;
    try {
      const { events } = await store.append(
        [
          {
            streamId: `plan-${planId}`,
            expectedVersion: 0,
            events: [
              { type: 'AuditSpecPackageCreated', data: { planId, name: 'Held' } },
              { type: 'AuditSpecExploding', data: { planId } },
            ],
          },
        ],
        byAdmin('2026-04-08T12:00:00Z'),
      );
      // The batch fails and rolls back, again and again: the checkpoint stays before the append.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [{ position }]: Array<{ position: string }> = await testApp.dataSource.query(
        `SELECT event_commit.commit_position::text AS position FROM events LEFT JOIN LATERAL ${COMMIT_OF_EVENT} ON true
          WHERE events.global_position = $1`,
        [events[0].globalPosition],
      );
      const checkpoint = await runner.checkpoint(AUDIT_LOG_PROJECTION_NAME);
      expect(BigInt(checkpoint?.commitPosition ?? '0')).toBeLessThan(BigInt(position));
      expect(await testApp.dataSource.query('SELECT id FROM audit_logs WHERE target_id = $1', [planId])).toEqual([]);
    } finally {
      mapperExplodes = false;
    }
    expect((await rowsFor(planId)).map((row) => row.operation_type)).toEqual(['CREATED']);
  });

  it('projects a live append as usual while another transaction of the process replays with its states in memory', async () => {
    const projection = testApp.app.get(InlineProjectionRegistry).get(AUDIT_LOG_PROJECTION_NAME);
    const replaying = testApp.dataSource.createQueryRunner();
    await replaying.connect();
    await replaying.startTransaction();
    projection.beginRebuild?.(replaying.manager);
    try {
      const planId = randomUUID();
      await store.append(
        [
          {
            streamId: `plan-${planId}`,
            expectedVersion: 0,
            events: [{ type: 'AuditSpecPackageCreated', data: { planId, name: 'Live' } }],
          },
        ],
        byAdmin('2026-04-09T10:00:00Z'),
      );
      expect((await statesFor(planId)).map(({ target_kind, fields }) => ({ target_kind, fields }))).toEqual([
        { target_kind: 'PACKAGE', fields: { name: 'Live' } },
      ]);
      expect((await rowsFor(planId)).map((row) => row.operation_type)).toEqual(['CREATED']);
    } finally {
      await projection.endRebuild?.(replaying.manager, false);
      await replaying.rollbackTransaction();
      await replaying.release();
    }
  });

  it('ignores the types registered as kept out of the log, and only those', async () => {
    const projection = testApp.app.get(InlineProjectionRegistry).get(AUDIT_LOG_PROJECTION_NAME);
    expect(projection.ignores).toContain('AuditSpecKeptOut');
    // A mapper that answers null is not a declaration: the log still reads those events.
    expect(projection.ignores).not.toContain('AuditSpecIgnored');
    expect(projection.ignores).toContain('TransferSent');
    expect(projection.ignores).not.toContain('PaymentRecorded');
    const streamId = `audit-spec-kept-out-${randomUUID()}`;
    await store.append(
      [{ streamId, expectedVersion: 0, events: [{ type: 'AuditSpecKeptOut', data: { planId: 'p-1' } }] }],
      byAdmin('2026-01-05T10:00:00.000Z'),
    );
    await activityLogCaughtUp(testApp);
    const rows = await testApp.dataSource.query('SELECT id FROM audit_logs WHERE stream_id = $1', [streamId]);
    expect(rows).toEqual([]);
  });

  it('reproduces the same entries, ids included, when rebuilt from the events', async () => {
    const snapshot = async () => ({
      logs: await testApp.dataSource.query('SELECT * FROM audit_logs ORDER BY id'),
      states: await testApp.dataSource.query('SELECT * FROM audit_target_states ORDER BY target_kind, target_id'),
    });
    await activityLogCaughtUp(testApp);
    const before = await snapshot();
    expect(before.logs.length).toBeGreaterThan(10);

    const projections = testApp.app.get(InlineProjectionRegistry);
    await testApp.dataSource.transaction((manager) => projections.get(AUDIT_LOG_PROJECTION_NAME).reset(manager));
    expect((await snapshot()).logs).toEqual([]);
    await projections.rebuild(AUDIT_LOG_PROJECTION_NAME);

    expect(await snapshot()).toEqual(before);
  });
});

describe('the audit log processor beside the other writers of its tables: an old process, a rebuild (ADR 0126)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // The processor runs only when the spec drains it, so the old process's write comes first for certain.
    testApp = await startTestApp({ backgroundWork: false });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('keeps the entries it finds, writes the rest, and moves on', async () => {
    const store = testApp.app.get(EventStore);
    const runner = testApp.app.get(ProcessorRunner);
    const projection = testApp.app.get(InlineProjectionRegistry).get(AUDIT_LOG_PROJECTION_NAME);
    const metadata = eventMetadata(systemContext('audit-upgrade-spec'), new Date('2026-12-01T10:00:00Z'));
    const streamId = `audit-spec-upgrade-${randomUUID()}`;
    await runner.drain(AUDIT_LOG_PROJECTION_NAME);

    const { events } = await store.append(
      [{ streamId, expectedVersion: 0, events: [{ type: 'AuditSpecUpgradeOpened', data: { name: 'Old' } }] }],
      metadata,
    );
    // What a process still running the old code did: the log's entries and states in the append's own commit.
    await testApp.dataSource.transaction((manager) => projection.apply(events, manager));
    await store.append(
      [{ streamId, expectedVersion: 1, events: [{ type: 'AuditSpecUpgradeRenamed', data: { name: 'New' } }] }],
      metadata,
    );

    await runner.drain(AUDIT_LOG_PROJECTION_NAME);
    const rows: Array<{ event_type: string }> = await testApp.dataSource.query(
      'SELECT event_type FROM audit_logs WHERE stream_id = $1 ORDER BY global_position',
      [streamId],
    );
    expect(rows.map((row) => row.event_type)).toEqual(['AuditSpecUpgradeOpened', 'AuditSpecUpgradeRenamed']);
    expect(await runner.passedHead(AUDIT_LOG_PROJECTION_NAME, 0)).toBe(true);
  });

  it('lets a rebuild and a batch in flight finish one after the other, without a deadlock (the locks’ order)', async () => {
    const store = testApp.app.get(EventStore);
    const runner = testApp.app.get(ProcessorRunner);
    const projections = testApp.app.get(InlineProjectionRegistry);
    const real = new AuditLogProcessor(projections.get(AUDIT_LOG_PROJECTION_NAME) as AuditLogProjection);
    await runner.drain(AUDIT_LOG_PROJECTION_NAME);
    const streamId = `audit-spec-lock-order-${randomUUID()}`;
    await store.append(
      [{ streamId, expectedVersion: 0, events: [{ type: 'AuditSpecLockOrder', data: { name: 'Held' } }] }],
      eventMetadata(systemContext('audit-lock-order-spec'), new Date('2026-12-01T11:00:00Z')),
    );

    // A batch that has written its rows and stops before its checkpoint: what the worker's batch looks like to a
    // rebuild that starts at that moment.
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let written: () => void = () => undefined;
    const rowsWritten = new Promise<void>((resolve) => (written = resolve));
    const held: Processor = {
      name: real.name,
      handles: real.handles,
      handle: async (events, manager) => {
        await real.handle(events, manager);
        written();
        await gate;
      },
    };
    const batch = runner.runBatch(held).then(
      (read) => ({ read }),
      (error: unknown) => ({ error }),
    );
    await rowsWritten;
    const rebuild = projections.rebuild(AUDIT_LOG_PROJECTION_NAME).then(
      (report) => ({ report }),
      (error: unknown) => ({ error }),
    );
    // The rebuild reaches the tables the batch holds, and waits there.
    await eventually(
      async (): Promise<Array<{ query: string }>> =>
        testApp.dataSource.query(
          `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        ),
      (waiting) => waiting.some(({ query }) => query.startsWith('TRUNCATE')),
      'the rebuild waiting for the batch’s tables',
      10_000,
    );
    openGate();

    const [batchOutcome, rebuildOutcome] = await Promise.all([batch, rebuild]);
    expect(batchOutcome).toEqual({ read: 1 });
    expect(rebuildOutcome).toMatchObject({ report: { projections: [AUDIT_LOG_PROJECTION_NAME] } });
    const rows: Array<{ event_type: string }> = await testApp.dataSource.query(
      'SELECT event_type FROM audit_logs WHERE stream_id = $1',
      [streamId],
    );
    expect(rows.map((row) => row.event_type)).toEqual(['AuditSpecLockOrder']);
    expect(await runner.passedHead(AUDIT_LOG_PROJECTION_NAME, 0)).toBe(true);
  });
});
