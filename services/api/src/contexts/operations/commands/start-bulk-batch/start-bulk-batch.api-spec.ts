import { type AuditLog, auditSentence, type BulkBatch, type Page, type Subscription } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { eventually } from '../../../../test-support/eventually';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { BulkBatchRunner } from '../../application/bulk-batch-runner';
import { BulkTargetActions } from '../../application/bulk-target-actions';
import { expectLedgerVerifyOk } from '../../../../test-support/ledger-verification';

describe('bulk operations', () => {
  let testApp: TestApp;
  let admin: string;
  let manager: ActiveUser;
  let client: ActiveUser;

  beforeAll(async () => {
    // The spec drives the batch runner itself, a chunk at a time, to stop it mid-batch.
    testApp = await startTestApp({ stoppedLoops: ['bulk-batches'] });
    admin = await adminToken(testApp);
    [manager, client] = await Promise.all([createActiveUser(testApp, { role: 'MANAGER' }), createActiveUser(testApp)]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Clients whose last name no one else has: a batch's selection reaches exactly them. */
  const clientsNamed = async (count: number) => {
    // Letters only: a name takes no digits.
    const lastName = `Bulk${randomUUID()
      .replace(/-/g, '')
      .slice(0, 10)
      .replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)])}`;
    const clients: ActiveUser[] = [];
    for (let index = 0; index < count; index += 1) clients.push(await createActiveUser(testApp, { lastName }));
    return { lastName, clients };
  };
  const post = (path: string, body: unknown, token: string | null = admin, key?: string) => {
    let call = testApp.http.post(`/api/bulk-operations${path}`);
    if (token) call = call.set('Authorization', `Bearer ${token}`);
    if (key) call = call.set('Idempotency-Key', key);
    return call.send(body as object);
  };
  const get = (path: string, token: string | null = admin) => {
    const call = testApp.http.get(`/api/bulk-operations${path}`);
    return token ? call.set('Authorization', `Bearer ${token}`) : call;
  };
  /** A runner acting on `targetsAtOnce` targets of each chunk at once (the module runs four). */
  const runner = (chunkSize: number, targetsAtOnce = 1) =>
    new BulkBatchRunner(
      testApp.dataSource,
      testApp.app.get(CommandPipeline),
      testApp.app.get(BulkTargetActions),
      testApp.app.get(Clock),
      { pollIntervalMs: 50, chunkSize, targetsAtOnce, pauseBetweenChunksMs: 0, leaseMs: 60_000 },
    );
  const balanceMinorOf = async (userUuid: string) =>
    Math.round(
      (await testApp.http.get(`/api/users/${userUuid}`).set('Authorization', `Bearer ${admin}`)).body.balance * 100,
    );
  const statusOf = async (userUuid: string) =>
    (await testApp.dataSource.query('SELECT status FROM users WHERE uuid = $1', [userUuid]))[0].status as string;
  const eventsOf = async (type: string, streamId: string) =>
    Number(
      (
        await testApp.dataSource.query('SELECT count(*) AS n FROM events WHERE type = $1 AND stream_id = $2', [
          type,
          streamId,
        ])
      )[0].n,
    );

  it('previews how many clients a selection matches, with the first few', async () => {
    const { lastName, clients } = await clientsNamed(3);
    const response = await post('/preview', { action: 'BLOCK', filter: { keyWord: lastName } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      action: 'BLOCK',
      targetKind: 'CLIENT',
      total: 3,
      sample: clients.map((one) => ({ id: one.userUuid, label: one.email })),
    });
  });

  it('blocks every selected client once, settles each target once, and unblocks them again', async () => {
    const { lastName, clients } = await clientsNamed(3);
    const started = await post('', { action: 'BLOCK', filter: { keyWord: lastName }, reason: 'Chargeback ring' });
    expect(started.status).toBe(201);
    const batch = started.body as BulkBatch;
    expect(batch).toMatchObject({ action: 'BLOCK', status: 'RUNNING', targetCount: 3, doneCount: 0 });
    expect(await runner(2, 2).runDue()).toBe(1);
    const finished = await get(`/${batch.id}`);
    expect(finished.headers['cache-control']).toBe('no-store');
    expect(finished.body).toMatchObject({ status: 'COMPLETED', targetCount: 3, doneCount: 3, failedCount: 0 });
    for (const one of clients) expect(await statusOf(one.userUuid)).toBe('BLOCKED');
    expect(await eventsOf('BulkTargetDone', `bulk-batch-${batch.id}`)).toBe(3);
    expect(await eventsOf('BulkBatchCompleted', `bulk-batch-${batch.id}`)).toBe(1);

    const unblock = await post('', {
      action: 'UNBLOCK',
      filter: { keyWord: lastName, statuses: ['BLOCKED'] },
      reason: 'Cleared',
    });
    expect(unblock.body.targetCount).toBe(3);
    await runner(50, 4).runDue();
    for (const one of clients) expect(await statusOf(one.userUuid)).toBe('ACTIVE');
  });

  it('resumes a batch stopped mid-way: no target twice, whatever was done before the stop was recorded', async () => {
    const { lastName, clients } = await clientsNamed(5);
    const reason = 'Outage of 28 Nov';
    const started = await post('', {
      action: 'GOODWILL_CREDIT',
      filter: { keyWord: lastName },
      reason,
      publicNote: 'Sorry for the outage',
      amount: 2.5,
    });
    expect(started.status).toBe(201);
    const batchId = started.body.id as string;
    // A crash between a target's credit and the batch's record of it: the credit is done, the batch does not know.
    const actions = testApp.app.get(BulkTargetActions);
    const batchActor = { userUuid: '', email: '', name: '', role: 'ADMIN' as const };
    const [row] = await testApp.dataSource.query(
      'SELECT actor_uuid, actor_email, actor_name FROM bulk_batches WHERE id = $1',
      [batchId],
    );
    Object.assign(batchActor, { userUuid: row.actor_uuid, email: row.actor_email, name: row.actor_name });
    const early = await actions.perform(
      {
        id: batchId,
        action: 'GOODWILL_CREDIT',
        reason,
        publicNote: 'Sorry for the outage',
        amountMinor: 250,
        days: null,
        actor: batchActor,
      },
      clients[3].userUuid,
    );
    expect(early.outcome).toBe('DONE');

    // The first runner is stopped after its first chunk of two (the pass asks once before it claims the batch).
    let asked = 0;
    expect(await runner(2).runDue(() => (asked += 1) >= 2)).toBe(0);
    const midway = await get(`/${batchId}`);
    expect(midway.body).toMatchObject({ status: 'RUNNING', doneCount: 2 });
    // Another runner (a restarted process) takes the rest, two targets at once.
    expect(await runner(2, 2).runDue()).toBe(1);
    expect((await get(`/${batchId}`)).body).toMatchObject({ status: 'COMPLETED', doneCount: 5, failedCount: 0 });
    for (const one of clients) expect(await balanceMinorOf(one.userUuid)).toBe(250);
    expect(await eventsOf('BulkTargetDone', `bulk-batch-${batchId}`)).toBe(5);

    const payments = await testApp.dataSource.query(
      `SELECT p.user_uuid, p.comment, p.public_note, e.account FROM payments p
         JOIN ledger_entries e ON e.payment_id = p.payment_id AND e.account NOT LIKE 'user:%'
        WHERE p.user_uuid = ANY($1::uuid[])`,
      [clients.map((one) => one.userUuid)],
    );
    expect(payments).toHaveLength(5);
    for (const payment of payments)
      expect(payment).toMatchObject({
        comment: reason,
        public_note: 'Sorry for the outage',
        account: 'expense:goodwill',
      });

    const csv = await get(`/${batchId}/results.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.text.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('target,label,outcome,result,error,settledAt');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual(
      clients.map((one) => `${one.userUuid},${one.email},DONE`),
    );
  });

  /** A subscription as staff read it. */
  const read = async (id: string): Promise<Subscription> =>
    (await testApp.http.get(`/api/subscriptions/${id}`).set('Authorization', `Bearer ${admin}`)).body as Subscription;
  /** A client's active subscription: bought on the balance, provisioned by the built-in simulator. */
  const activeSubscription = async (planId: string): Promise<Subscription> => {
    const customer = await createActiveUser(testApp);
    await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: customer.userUuid, amount: 10, action: 'DEPOSIT', comment: 'fixture deposit' })
      .expect(201);
    const bought = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${planId}`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ login: `bulk${randomUUID().slice(0, 8)}`, password: 'pass-1234' })
      .expect(201);
    return eventually(
      () => read(bought.body.id),
      (one) => one.status === 'ACTIVE',
      'the subscription is provisioned',
      30_000,
    );
  };

  it('adds days to each selected subscription exactly once, resumed after a stop mid-way', async () => {
    const plan = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: `Bulk ${randomUUID().slice(0, 8)}`,
        durationInMonths: 1,
        price: 5,
        currency: 'USD',
        isRecurrent: false,
        description: 'Bulk days',
        features: ['HD'],
        status: 'ACTIVE',
      })
      .expect(201);
    const subscriptions: Subscription[] = [];
    for (let index = 0; index < 4; index += 1) subscriptions.push(await activeSubscription(plan.body.id));
    const ids = subscriptions.map((one) => one.id);
    const preview = await post('/preview', { action: 'ADD_DAYS', subscriptionFilter: { ids } });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ action: 'ADD_DAYS', targetKind: 'SUBSCRIPTION', total: 4 });
    expect(preview.body.sample.map((one: { id: string }) => one.id).sort()).toEqual([...ids].sort());
    const expired = await post('/preview', {
      action: 'ADD_DAYS',
      subscriptionFilter: { ids, statuses: ['EXPIRED'] },
    });
    expect(expired.body.total).toBe(0);
    const started = await post('', {
      action: 'ADD_DAYS',
      subscriptionFilter: { ids },
      reason: 'Outage of 28 Nov',
      publicNote: 'Sorry for the outage',
      days: 2,
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ action: 'ADD_DAYS', targetKind: 'SUBSCRIPTION', days: 2, targetCount: 4 });
    const batchId = started.body.id as string;
    // A crash after one subscription's extension, before the batch recorded it.
    const [row] = await testApp.dataSource.query(
      'SELECT actor_uuid, actor_email, actor_name FROM bulk_batches WHERE id = $1',
      [batchId],
    );
    const actor = { userUuid: row.actor_uuid, email: row.actor_email, name: row.actor_name, role: 'ADMIN' as const };
    const batch = {
      id: batchId,
      action: 'ADD_DAYS' as const,
      reason: 'Outage of 28 Nov',
      publicNote: 'Sorry for the outage',
      amountMinor: null,
      days: 2,
      actor,
    };
    expect(await testApp.app.get(BulkTargetActions).perform(batch, subscriptions[0].id)).toEqual({
      outcome: 'DONE',
      resultRef: null,
    });
    let asked = 0;
    expect(await runner(2).runDue(() => (asked += 1) >= 2)).toBe(0);
    expect((await get(`/${batchId}`)).body).toMatchObject({ status: 'RUNNING' });
    expect(await runner(2).runDue()).toBe(1);
    expect((await get(`/${batchId}`)).body).toMatchObject({ status: 'COMPLETED', doneCount: 4, failedCount: 0 });
    const DAY_MS = 24 * 60 * 60 * 1000;
    for (const before of subscriptions) {
      const after = await read(before.id);
      expect(new Date(after.endDate as string).getTime() - new Date(before.endDate as string).getTime()).toBe(
        2 * DAY_MS,
      );
      expect(await eventsOf('SubscriptionExtended', `subscription-${before.id}`)).toBe(1);
    }
    const [extended] = await testApp.dataSource.query(
      `SELECT data FROM events WHERE type = 'SubscriptionExtended' AND stream_id = $1`,
      [`subscription-${subscriptions[0].id}`],
    );
    expect(extended.data).toMatchObject({ days: 2, reason: 'Sorry for the outage', source: 'BULK', batchId });
    const csv = await get(`/${batchId}/results.csv`);
    expect(csv.text).toContain(`${subscriptions[0].id},${subscriptions[0].userEmail},DONE`);

    // The activity log tells the batch as two entries, named by its reason; each extension is its subscription's own,
    // and the batch's id finds them too (their correlation id), the one done before the stop included.
    const log = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [batchId] });
    expect(log.status).toBe(200);
    const found = (log.body as Page<AuditLog>).content;
    expect(
      found
        .filter((entry) => entry.target.type === 'SUBSCRIPTION')
        .map((entry) => [entry.eventType, entry.target.id])
        .sort(),
    ).toEqual([...ids].sort().map((id) => ['SubscriptionExtended', id]));
    const entries = found.filter((entry) => entry.target.type === 'BULK_BATCH');
    expect(entries.every((entry) => entry.target.id === batchId)).toBe(true);
    expect(found).toHaveLength(entries.length + ids.length);
    const plain = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
    const sentences = (lang: 'he' | 'en') => entries.map((entry) => plain(auditSentence(entry, lang))).sort();
    expect(sentences('en')).toEqual([
      'Bulk operation Outage of 28 Nov: finished, 4 done and 0 failed',
      expect.stringMatching(/^Bulk operation Outage of 28 Nov: started by .+, \+2 days to 4 subscriptions$/),
    ]);
    expect(sentences('he')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^פעולה גורפת Outage of 28 Nov: הופעלה על ידי .+, \+2 ימים ל-4 מנויים$/),
      ]),
    );
    const extensions = await testApp.http
      .post('/api/audit-logs/search')
      .set('Authorization', `Bearer ${admin}`)
      .send({ targetAndParentIds: [subscriptions[1].id] });
    expect((extensions.body as Page<AuditLog>).content.map((entry) => entry.eventType)).toContain(
      'SubscriptionExtended',
    );
    // Each subscription's history says the days, the text the clients read and the staff member who gave them.
    const extensionEntry = (extensions.body as Page<AuditLog>).content.find(
      (entry) => entry.eventType === 'SubscriptionExtended',
    ) as AuditLog;
    expect(plain(auditSentence(extensionEntry, 'en'))).toMatch(/: \+2 days: Sorry for the outage by .+/);
    expect(plain(auditSentence(extensionEntry, 'he'))).toMatch(/: \+2 ימים: Sorry for the outage על ידי .+/);
    expect(extensionEntry.createdBy.name).not.toBe('SYSTEM');
    // The subscription shows the public note with the days; who gave them stays the staff's to read.
    expect((await read(subscriptions[1].id)).extensions).toEqual([
      expect.objectContaining({ days: 2, reason: 'Sorry for the outage', source: 'BULK' }),
    ]);
  });

  it('records a target the action refuses as failed and goes on', async () => {
    const { lastName, clients } = await clientsNamed(2);
    await testApp.dataSource.query('SELECT 1');
    const started = await post('', { action: 'BLOCK', filter: { keyWord: lastName }, reason: 'Test' });
    // One target vanishes from identity's point of view between the start and the run.
    await testApp.dataSource.query(
      'UPDATE bulk_batch_targets SET target_id = $2 WHERE batch_id = $1 AND target_id = $3',
      [started.body.id, randomUUID(), clients[0].userUuid],
    );
    await runner(50, 2).runDue();
    expect((await get(`/${started.body.id}`)).body).toMatchObject({
      status: 'COMPLETED',
      doneCount: 1,
      failedCount: 1,
    });
    const csv = await get(`/${started.body.id}/results.csv`);
    expect(csv.text).toContain('FAILED,,error.user.not.found');
  });

  it('answers a repeated Idempotency-Key with the same batch, and lists batches newest first', async () => {
    const { lastName } = await clientsNamed(1);
    const key = randomUUID();
    const body = { action: 'BLOCK', filter: { keyWord: lastName }, reason: 'Once' };
    const first = await post('', body, admin, key);
    const again = await post('', body, admin, key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const list = await get('');
    expect(list.status).toBe(200);
    expect(list.body.items[0].id).toBe(first.body.id);
    expect(list.body.items.filter((batch: BulkBatch) => batch.id === first.body.id)).toHaveLength(1);
  });

  it("previews with the staff lists' further filters, validated as the lists validate them", async () => {
    const { lastName } = await clientsNamed(2);
    const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const clientTotal = async (filter: Record<string, unknown>) =>
      (await post('/preview', { action: 'BLOCK', filter: { keyWord: lastName, ...filter } })).body.total as number;
    expect(await clientTotal({ roles: ['CLIENT'], statuses: ['ACTIVE'] })).toBe(2);
    expect(await clientTotal({ roles: ['AMBASSADOR'] })).toBe(0);
    expect(await clientTotal({ registrationDate: { from: day(-1), to: day(1) } })).toBe(2);
    expect(await clientTotal({ registrationDate: { from: day(1) } })).toBe(0);

    const plan = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: `Bulk filters ${randomUUID().slice(0, 8)}`,
        durationInMonths: 1,
        price: 7.13,
        currency: 'USD',
        isRecurrent: false,
        description: 'Bulk filters',
        features: ['HD'],
        status: 'ACTIVE',
      })
      .expect(201);
    const ids = [(await activeSubscription(plan.body.id)).id, (await activeSubscription(plan.body.id)).id];
    const subscriptionTotal = async (filter: Record<string, unknown>) =>
      (await post('/preview', { action: 'ADD_DAYS', subscriptionFilter: { ids, ...filter } })).body.total as number;
    expect(
      await subscriptionTotal({ durationsInMonths: [1], types: ['REGULAR'], price: { from: 7.13, to: 7.13 } }),
    ).toBe(2);
    expect(await subscriptionTotal({ durationsInMonths: [12] })).toBe(0);
    expect(await subscriptionTotal({ types: ['TRIAL'] })).toBe(0);
    expect(await subscriptionTotal({ price: { to: 7.12 } })).toBe(0);
    expect(await subscriptionTotal({ endDate: { from: day(20), to: day(40) } })).toBe(2);
    expect(await subscriptionTotal({ endDate: { to: day(1) } })).toBe(0);
    expect(await subscriptionTotal({ startDate: { from: day(-1) }, createdAt: { to: day(1) } })).toBe(2);

    const refusedPreview = async (body: Record<string, unknown>) => {
      const response = await post('/preview', body);
      return `${response.status} ${response.body.error}`;
    };
    expect(await refusedPreview({ action: 'BLOCK', filter: { registrationDate: { from: 'yesterday' } } })).toMatch(
      /^400 /,
    );
    expect(await refusedPreview({ action: 'ADD_DAYS', subscriptionFilter: { endDate: { to: 'soon' } } })).toMatch(
      /^400 /,
    );
    expect(await refusedPreview({ action: 'ADD_DAYS', subscriptionFilter: { price: { from: -1 } } })).toMatch(/^400 /);
    expect(await refusedPreview({ action: 'ADD_DAYS', subscriptionFilter: { durationsInMonths: [5] } })).toMatch(
      /^400 /,
    );
    expect(await refusedPreview({ action: 'ADD_DAYS', subscriptionFilter: { planId: plan.body.id } })).toMatch(/^400 /);
  });

  it('refuses bad input with catalogue codes', async () => {
    const { lastName } = await clientsNamed(1);
    const refused = async (body: unknown) => {
      const response = await post('', body);
      return `${response.status} ${response.body.details?.fields?.[0]?.error ?? response.body.error}`;
    };
    const filter = { keyWord: lastName };
    expect(await refused({ action: 'GOODWILL_CREDIT', filter, reason: 'x' })).toBe('400 error.validation.required');
    expect(await refused({ action: 'GOODWILL_CREDIT', filter, reason: 'x', amount: 501 })).toBe(
      '400 error.validation.max',
    );
    expect(await refused({ action: 'BLOCK', filter, reason: ' ' })).toBe('400 error.validation.required');
    expect(await refused({ action: 'EXPLODE', filter, reason: 'x' })).toBe('400 error.validation.invalid.field');
    expect(await refused({ action: 'BLOCK', filter: { roles: ['ADMIN'] }, reason: 'x' })).toMatch(/^400 /);
    expect(await refused({ action: 'BLOCK', filter: { keyWord: 'nobody-matches-this-zz' }, reason: 'x' })).toBe(
      '409 error.bulk.no.targets',
    );
    expect(await refused({ action: 'ADD_DAYS', reason: 'x' })).toBe('400 error.validation.required');
    expect(await refused({ action: 'ADD_DAYS', reason: 'x', days: 366 })).toBe('400 error.validation.max');
    expect(await refused({ action: 'ADD_DAYS', filter, reason: 'x', days: 2 })).toBe(
      '400 error.validation.invalid.field',
    );
    expect(await refused({ action: 'BLOCK', subscriptionFilter: { statuses: ['ACTIVE'] }, reason: 'x' })).toBe(
      '400 error.validation.invalid.field',
    );
    expect(
      await refused({ action: 'ADD_DAYS', subscriptionFilter: { statuses: ['GONE'] }, reason: 'x', days: 2 }),
    ).toMatch(/^400 /);
    expect(
      await refused({ action: 'ADD_DAYS', subscriptionFilter: { ids: ['ffffffff-0000'] }, reason: 'x', days: 2 }),
    ).toBe('409 error.bulk.no.targets');
    expect((await get(`/${randomUUID()}`)).status).toBe(404);
    expect((await get(`/${randomUUID()}/results.csv`)).status).toBe(404);
  });

  it('is for admins only', async () => {
    const body = { action: 'BLOCK', reason: 'x' };
    expect((await post('/preview', body, null)).status).toBe(401);
    expect((await post('/preview', body, manager.accessToken)).status).toBe(403);
    expect((await post('', body, client.accessToken)).status).toBe(403);
    expect((await get('', manager.accessToken)).status).toBe(403);
  });

  it('leaves `kupa ledger verify` clean after blocking, goodwill credits and added days', async () => {
    await expectLedgerVerifyOk(testApp);
  });

  it('leaves the data source usable', async () => {
    expect(testApp.app.get(DataSource).isInitialized).toBe(true);
  });
});
