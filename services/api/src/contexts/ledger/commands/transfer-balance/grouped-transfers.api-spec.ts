import type { QueryRunner } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { CommandBatches } from '../../../../platform/commands';
import type { InlineProjection } from '../../../../platform/event-store';
import { Metrics } from '../../../../platform/observability/metrics';
import { InlineProjectionRegistry } from '../../../../platform/projections/inline-projection.registry';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf, depositAs } from '../../ledger.fixtures';
import { expectLedgerVerifyOk } from '../../../../test-support/ledger-verification';

/** An amount whose events the failing projection below throws on, in cents. */
const POISONED_MINOR = 1337;

/**
 * Group commit (docs/adr/0130-group-commit.md) on balance transfers: batches arranged by holding wallet rows from
 * another connection, so that commands queue while both of the process's batches wait, and go as one batch when
 * one is let go.
 */
describe('POST /payments/transfer grouped (COMMAND_GROUPING=1)', () => {
  let testApp: TestApp;
  let batches: CommandBatches;
  let metrics: Metrics;
  let poisoned = false;

  const failing: InlineProjection = {
    name: 'test-failing-for-one-amount',
    handles: '*',
    async apply(events) {
      if (poisoned && events.some((event) => (event.data as { amountMinor?: number }).amountMinor === POISONED_MINOR))
        throw new Error('a projection that fails for one transfer');
    },
    async reset() {},
  };

  beforeAll(async () => {
    testApp = await startTestApp({ env: { COMMAND_GROUPING: '1' } });
    batches = testApp.app.get(CommandBatches);
    metrics = testApp.app.get(Metrics);
    testApp.app.get(InlineProjectionRegistry).register(failing);
    await adminToken(testApp); // made once, before the fixtures ask for it side by side
  });

  afterAll(async () => {
    await testApp.close();
  });

  const transfer = (from: ActiveUser, recipient: ActiveUser, amount: number, key?: string) => {
    let call = testApp.http.post('/api/payments/transfer').set('Authorization', `Bearer ${from.accessToken}`);
    if (key !== undefined) call = call.set('Idempotency-Key', key);
    // supertest sends only once awaited or `then`ed: start it now.
    return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) =>
      call.send({ recipient: recipient.email, amount }).then(resolve, reject),
    );
  };

  /** Holds the wallets' stream rows from a connection of its own until `release`. */
  const holdWallets = async (...users: ActiveUser[]) => {
    const runner: QueryRunner = testApp.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query('SELECT 1 FROM streams WHERE stream_id = ANY($1) FOR UPDATE', [
      users.map((user) => `wallet-${user.userUuid}`),
    ]);
    return {
      release: async () => {
        await runner.commitTransaction();
        await runner.release();
      },
    };
  };

  const untilQueued = async (count: number) => {
    for (let waitedMs = 0; batches.queued < count; waitedMs += 10) {
      if (waitedMs > 10_000) throw new Error(`${batches.queued} commands queued, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const users = (count: number) => Promise.all(Array.from({ length: count }, () => createActiveUser(testApp)));

  /** Fills both batches in flight with a transfer each to a held wallet; `free` lets them commit. */
  const occupyBothBatches = async () => {
    const [a, b, heldA, heldB] = await users(4);
    // A wallet's stream row exists from its first event on; only then can it be held.
    await Promise.all([a, b, heldA, heldB].map((user) => depositAs(testApp, user.userUuid, 1)));
    const holdA = await holdWallets(heldA);
    const holdB = await holdWallets(heldB);
    const first = transfer(a, heldA, 1);
    const second = transfer(b, heldB, 1);
    // Both are in their transactions, waiting for the held rows, when a third queues behind them.
    await waitForLockWaiters(2);
    return {
      freeFirst: async () => {
        await holdA.release();
        expect((await first).status).toBe(201);
      },
      freeSecond: async () => {
        await holdB.release();
        expect((await second).status).toBe(201);
      },
    };
  };

  const waitForLockWaiters = async (count: number) => {
    for (let waitedMs = 0; ; waitedMs += 10) {
      const [{ waiting }]: { waiting: number }[] = await testApp.dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting >= count) return;
      if (waitedMs > 10_000) throw new Error(`${waiting} transactions wait for a lock, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  /** How many batches formed and how many commands they held, so far. */
  const batchTotals = async () => {
    const { values } = await metrics.commandBatchSize.get();
    const of = (suffix: string) => values.find((value) => value.metricName?.endsWith(suffix))?.value ?? 0;
    return { batches: of('_count'), commands: of('_sum') };
  };

  it('answers a refusal, a concurrent repeat and a reused key alone while the others of the batch commit', async () => {
    const [payer, broke, repeater, reuser, plain] = await users(5);
    const payees = await users(5);
    const [heldForRepeat, heldForReuse] = await users(2);
    await Promise.all([payer, repeater, reuser, plain].map((user) => depositAs(testApp, user.userUuid, 10)));
    await Promise.all([heldForRepeat, heldForReuse].map((user) => depositAs(testApp, user.userUuid, 1)));
    const [brokeKey, repeatKey, reuseKey] = [randomUUID(), randomUUID(), randomUUID()];

    // The first attempts of two keys wait in one batch for held wallets, while the second occupier waits too.
    const busy = await occupyBothBatches();
    const held = await holdWallets(heldForRepeat, heldForReuse);
    const firstRepeat = transfer(repeater, heldForRepeat, 2, repeatKey);
    const firstReuse = transfer(reuser, heldForReuse, 3, reuseKey);
    await untilQueued(2);
    await busy.freeFirst();
    await waitForLockWaiters(2);

    // The batch under test queues behind them: a refusal, a repeat and a reuse of the waiting keys, two plain ones.
    const responses = [
      transfer(payer, payees[0], 4),
      transfer(broke, payees[1], 1, brokeKey),
      transfer(repeater, heldForRepeat, 2, repeatKey),
      transfer(reuser, payees[3], 9, reuseKey),
      transfer(plain, payees[4], 5),
    ];
    await untilQueued(5);
    const before = await batchTotals();
    await held.release();
    const [repeatFirst, reuseFirst] = await Promise.all([firstRepeat, firstReuse]);
    expect([repeatFirst.status, reuseFirst.status]).toEqual([201, 201]);
    const [paid, refused, repeated, reused, plainPaid] = await Promise.all(responses);
    const after = await batchTotals();
    await busy.freeSecond();

    // One batch took all five.
    expect([after.batches - before.batches, after.commands - before.commands]).toEqual([1, 5]);
    expect([paid.status, plainPaid.status]).toEqual([201, 201]);
    expect([refused.status, refused.body.error]).toEqual([409, 'error.insufficient.balance']);
    expect([repeated.status, repeated.body]).toEqual([201, repeatFirst.body]);
    expect([reused.status, reused.body.error]).toEqual([409, 'error.idempotency.key.reused']);
    expect(await balanceMinorOf(testApp, payer.userUuid)).toBe(600);
    expect(await balanceMinorOf(testApp, repeater.userUuid)).toBe(800);
    expect(await balanceMinorOf(testApp, reuser.userUuid)).toBe(700);
    expect(await balanceMinorOf(testApp, plain.userUuid)).toBe(500);
    const received = await Promise.all(payees.map((user) => balanceMinorOf(testApp, user.userUuid)));
    expect(received).toEqual([400, 0, 0, 0, 500]);

    // The refused command's key was not kept: its retry goes ahead. A sequential repeat answers the first body.
    await depositAs(testApp, broke.userUuid, 1);
    expect((await transfer(broke, payees[1], 1, brokeKey)).status).toBe(201);
    expect(await transfer(repeater, heldForRepeat, 2, repeatKey)).toMatchObject({
      status: 201,
      body: repeatFirst.body,
    });
  });

  it('runs a batch again command by command when a write fails, so that only that command fails', async () => {
    const [left, middle, right, ...payees] = await users(6);
    await Promise.all([left, middle, right].map((user) => depositAs(testApp, user.userUuid, 20)));
    const fallbacksBefore = (await metrics.commandBatchFallbacks.get()).values[0]?.value ?? 0;
    const busy = await occupyBothBatches();
    const responses = [
      transfer(left, payees[0], 1),
      transfer(middle, payees[1], POISONED_MINOR / 100),
      transfer(right, payees[2], 2),
    ];
    await untilQueued(3);
    poisoned = true;
    try {
      await busy.freeFirst();
      const [leftDone, poisonedDone, rightDone] = await Promise.all(responses);
      expect([leftDone.status, poisonedDone.status, rightDone.status]).toEqual([201, 500, 201]);
    } finally {
      poisoned = false;
      await busy.freeSecond();
    }
    expect((await metrics.commandBatchFallbacks.get()).values[0]?.value).toBe(fallbacksBefore + 1);
    expect(await balanceMinorOf(testApp, middle.userUuid)).toBe(2000);
    const received = await Promise.all(payees.map((user) => balanceMinorOf(testApp, user.userUuid)));
    expect(received).toEqual([100, 0, 200]);
    const written: { count: number }[] = await testApp.dataSource.query(
      "SELECT count(*)::int AS count FROM events WHERE (data->>'amountMinor')::int = $1",
      [POISONED_MINOR],
    );
    expect(written[0].count).toBe(0);
  });

  it('runs transfers between many wallets in batches, conserving money, and verifies', async () => {
    const people = await users(16);
    await Promise.all(people.map((user) => depositAs(testApp, user.userUuid, 50)));
    const before = await batchTotals();
    // Eight pairs, each paying back and forth: transfers of different pairs may share a batch.
    const responses = await Promise.all(
      Array.from({ length: 48 }, (_, index) => {
        const [from, to] = [people[index % 8], people[8 + (index % 8)]];
        return Math.floor(index / 8) % 2 === 0 ? transfer(from, to, 1.25) : transfer(to, from, 0.5);
      }),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(48).fill(201));
    const after = await batchTotals();
    // Some batch held more than one transfer.
    expect(after.commands - before.commands).toBeGreaterThan(after.batches - before.batches);
    const balances = await Promise.all(people.map((user) => balanceMinorOf(testApp, user.userUuid)));
    expect(balances.reduce((sum, minor) => sum + minor, 0)).toBe(16 * 5000);
    await expectLedgerVerifyOk(testApp);
  });
});
