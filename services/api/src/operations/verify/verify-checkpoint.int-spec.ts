import type { Payment, Plan } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { CLI_COMMANDS } from '../../cli.commands';
import { accountsReplayReads } from '../../contexts/ledger';
import { InlineProjectionRegistry } from '../../platform/projections';
import { type ActiveUser, adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { LedgerVerifier } from './ledger-verifier';
import { SinceCheckpointVerifier } from './since-checkpoint-verifier';
import { bucketOf } from './verify-checkpoint';
import { LedgerVerifyStateBuckets1772200012200 } from './verify-state-buckets.migration';

describe('kupa ledger verify from a checkpoint (ADR 0111) on PostgreSQL', () => {
  let testApp: TestApp;
  let admin: string;
  let alice: ActiveUser;
  let bob: ActiveUser;
  let plan: Plan;
  let full: LedgerVerifier;
  let since: SinceCheckpointVerifier;

  const newestCommitPosition = async (): Promise<string> =>
    (
      await testApp.dataSource.query<Array<{ position: string }>>(
        'SELECT coalesce(max(commit_position), 0)::text AS position FROM event_commits',
      )
    )[0].position;

  const eventsAfter = async (position: string): Promise<number> =>
    Number(
      (
        await testApp.dataSource.query<Array<{ count: string }>>(
          'SELECT coalesce(sum(event_count), 0)::text AS count FROM event_commits WHERE commit_position > $1::bigint',
          [position],
        )
      )[0].count,
    );

  const deposit = async (user: ActiveUser, amount: number): Promise<Payment> => {
    const response = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .set('Idempotency-Key', randomUUID())
      .send({ userUuid: user.userUuid, amount, action: 'DEPOSIT', comment: 'checkpoint spec' });
    expect(response.status).toBe(201);
    return response.body as Payment;
  };

  const transfer = async (from: ActiveUser, to: ActiveUser, amount: number): Promise<void> => {
    const response = await testApp.http
      .post('/api/payments/transfer')
      .set('Authorization', `Bearer ${from.accessToken}`)
      .send({ recipient: to.email, amount });
    expect(response.status).toBe(201);
  };

  const purchase = async (customer: ActiveUser): Promise<void> => {
    const response = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${plan.id}`)
      .set('Authorization', `Bearer ${customer.accessToken}`)
      .send({ login: `cp${randomUUID().slice(0, 8)}`, password: 'pass-1234' });
    expect(response.status).toBe(201);
  };

  /** Runs the command line's `ledger verify --since-checkpoint --json` in this app; answers its exit code and JSON. */
  const sinceFromCli = async (): Promise<{ code: number; json: { outcome: string } }> => {
    const command = CLI_COMMANDS.find((candidate) => candidate.words.join(' ') === 'ledger verify');
    if (!command || command.bare) throw new Error('ledger verify is not an application command');
    const printed: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    try {
      const code = await command.run(testApp.app, { 'since-checkpoint': true, json: true }, [], {
        databaseUrl: '',
        dataDir: '',
      });
      return { code, json: JSON.parse(printed.join('\n')) as { outcome: string } };
    } finally {
      log.mockRestore();
    }
  };

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    [alice, bob] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    await deposit(alice, 100);
    await deposit(bob, 40);
    const created = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: `Checkpoint ${randomUUID().slice(0, 8)}`,
        durationInMonths: 1,
        price: 10,
        currency: 'USD',
        isRecurrent: false,
        description: 'Every channel',
        features: ['HD'],
        status: 'ACTIVE',
      });
    expect(created.status).toBe(201);
    plan = created.body as Plan;
    full = new LedgerVerifier(testApp.dataSource, testApp.app.get(InlineProjectionRegistry));
    since = new SinceCheckpointVerifier(testApp.dataSource);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('says there is nothing to continue before a full verify wrote a checkpoint, and exits 3', async () => {
    const report = await since.verify();
    expect(report).toMatchObject({ outcome: 'no-checkpoint', ok: false, checkpoint: null });
    await expect(sinceFromCli()).resolves.toMatchObject({ code: 3, json: { outcome: 'no-checkpoint' } });
  });

  it('continues a full verify’s checkpoint through only the new events, and chains its own to it', async () => {
    const verified = await full.verify({ writeCheckpoint: true });
    expect(verified.differences).toEqual([]);
    if (!verified.checkpoint?.written) throw new Error(`no checkpoint: ${JSON.stringify(verified.checkpoint)}`);
    const first = verified.checkpoint.header;
    expect(first).toMatchObject({ kind: 'FULL', previousHash: null });
    expect(first.commitPosition).toBe(await newestCommitPosition());

    await transfer(alice, bob, 12.5);
    await purchase(bob);
    await deposit(alice, 3);
    const newEvents = await eventsAfter(first.commitPosition);
    expect(newEvents).toBeGreaterThanOrEqual(6);

    const report = await since.verify();
    expect(report.differences).toEqual([]);
    expect(report.outcome).toBe('verified');
    expect(report.from).toEqual({
      checkpointId: first.checkpointId,
      commitPosition: first.commitPosition,
      hash: first.hash,
    });
    // Every event after the checkpoint, and those alone (the processors may append more while it runs: they are
    // after the position it read, so it did not replay them).
    expect(report.counts.eventsReplayed).toBe(
      (await eventsAfter(first.commitPosition)) - (await eventsAfter(report.commitPosition as string)),
    );
    expect(report.counts.eventsReplayed).toBeGreaterThanOrEqual(newEvents);
    expect(report.counts.transactions).toBeGreaterThanOrEqual(3);
    if (!report.checkpoint?.written) throw new Error(`no checkpoint: ${JSON.stringify(report.checkpoint)}`);
    expect(report.checkpoint.header).toMatchObject({
      kind: 'SINCE',
      previousHash: first.hash,
      commitPosition: report.commitPosition,
      eventsVerified: report.counts.eventsReplayed,
    });

    // The balances it carried forward are the ones a full verify finds at the same position.
    const again = await full.verify({ writeCheckpoint: true });
    expect(again.ok).toBe(true);
    if (!again.checkpoint?.written) throw new Error(`no checkpoint: ${JSON.stringify(again.checkpoint)}`);
    // No money moved in between (a processor may still append a purchase's provisioning events, which book none).
    expect(again.checkpoint.header.balancesDigest).toBe(report.checkpoint.header.balancesDigest);
    expect(again.checkpoint.header.previousHash).toBe(report.checkpoint.header.hash);
    // One set of state rows, the newest checkpoint's, in its buckets (ADR 0122); the older headers keep the chain.
    const [state] = await testApp.dataSource.query<Array<{ buckets: number }>>(
      'SELECT count(*)::int AS buckets FROM ledger_verify_state_buckets',
    );
    expect(state.buckets).toBe(again.checkpoint.header.bucketCount);
    expect(await checkpointCount()).toBe(3);
  });

  it('catches an event edited after the checkpoint, and writes no checkpoint', async () => {
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    await transfer(bob, alice, 1);
    const [edited] = await testApp.dataSource.query<Array<{ stream_id: string; stream_version: number }>>(
      `SELECT stream_id, stream_version FROM events WHERE type = 'TransferSent' ORDER BY global_position DESC LIMIT 1`,
    );
    const checkpointsBefore = await checkpointCount();
    await testApp.dataSource.query(
      `UPDATE events SET data = jsonb_set(data, '{amountMinor}', '99900') WHERE stream_id = $1 AND stream_version = $2`,
      [edited.stream_id, edited.stream_version],
    );
    try {
      const report = await since.verify();
      expect(report.outcome).toBe('failed');
      expect(report.checkpoint).toBeNull();
      expect(report.differences).toContainEqual(
        expect.objectContaining({
          source: 'hash-chain',
          subject: `stream ${edited.stream_id} v${edited.stream_version}`,
        }),
      );
      expect(await checkpointCount()).toBe(checkpointsBefore);
    } finally {
      await testApp.dataSource.query(
        `UPDATE events SET data = jsonb_set(data, '{amountMinor}', '100') WHERE stream_id = $1 AND stream_version = $2`,
        [edited.stream_id, edited.stream_version],
      );
    }
    expect((await since.verify()).differences).toEqual([]);
  });

  it('catches a balance the read model holds otherwise than the replay from the checkpoint', async () => {
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    await transfer(alice, bob, 2);
    await testApp.dataSource.query(`UPDATE account_balances SET balance_minor = balance_minor + 1 WHERE account = $1`, [
      `user:${bob.userUuid}`,
    ]);
    try {
      const report = await since.verify();
      expect(report.outcome).toBe('failed');
      expect(report.differences).toContainEqual(
        expect.objectContaining({ source: 'account_balances', subject: `account user:${bob.userUuid}` }),
      );
    } finally {
      await testApp.dataSource.query(
        `UPDATE account_balances SET balance_minor = balance_minor - 1 WHERE account = $1`,
        [`user:${bob.userUuid}`],
      );
    }
  });

  it('refuses a tampered checkpoint loudly, until a full verify writes a new one', async () => {
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    const newest = async (): Promise<number> =>
      Number(
        (
          await testApp.dataSource.query<Array<{ id: string }>>(
            'SELECT max(checkpoint_id)::text AS id FROM ledger_verify_checkpoints',
          )
        )[0].id,
      );
    const tampered = await newest();
    // A row is checked when the window touches its bucket (ADR 0122): a transfer of Alice's touches hers.
    await transfer(alice, bob, 1);
    await testApp.dataSource.query(
      `UPDATE ledger_verify_state_balances SET balance_minor = balance_minor + 5000 WHERE account = $1`,
      [`user:${alice.userUuid}`],
    );
    const rowEdited = await since.verify();
    expect(rowEdited.outcome).toBe('failed');
    expect(rowEdited.differences).toEqual([
      expect.objectContaining({
        source: 'checkpoint',
        subject: `checkpoint ${tampered}`,
        message: `balances digest of bucket ${bucketOf(`user:${alice.userUuid}`, 256)} differs`,
      }),
    ]);
    await expect(sinceFromCli()).resolves.toMatchObject({ code: 1, json: { outcome: 'failed' } });

    await testApp.dataSource.query(
      'UPDATE ledger_verify_checkpoints SET commit_position = commit_position + 1 WHERE checkpoint_id = $1',
      [tampered],
    );
    const headerEdited = await since.verify();
    expect(headerEdited.outcome).toBe('failed');
    expect(headerEdited.differences).toEqual([
      expect.objectContaining({
        source: 'checkpoint',
        message: `checkpoint ${tampered}: its fields do not match its hash`,
      }),
    ]);

    // The full verify does not lean on checkpoints: it re-proves the history and starts a new chain to build on.
    const recovered = await full.verify({ writeCheckpoint: true });
    expect(recovered.ok).toBe(true);
    expect(await newest()).toBeGreaterThan(tampered);
    await transfer(bob, alice, 1);
    const report = await since.verify();
    expect(report.differences).toEqual([]);
    expect(report.outcome).toBe('verified');
  });

  it('continues the newest checkpoint past the ninth: checkpoints are ordered by number, not as text', async () => {
    let previous = (await full.verify({ writeCheckpoint: true })).checkpoint;
    while (previous?.written && previous.header.checkpointId <= 11) {
      const report = await since.verify();
      expect(report.from?.checkpointId).toBe(previous.header.checkpointId);
      if (!report.checkpoint?.written) throw new Error(`no checkpoint: ${JSON.stringify(report.checkpoint)}`);
      expect(report.checkpoint.header.previousHash).toBe(previous.header.hash);
      previous = report.checkpoint;
    }
    expect(previous?.written && previous.header.checkpointId).toBeGreaterThan(10);
  });

  it('catches a head row edited in a bucket the window touches, and writes no checkpoint (ADR 0122)', async () => {
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    await deposit(alice, 2);
    const checkpointsBefore = await checkpointCount();
    const stream = `wallet-${alice.userUuid}`;
    await testApp.dataSource.query(
      'UPDATE ledger_verify_state_heads SET last_hash = md5(last_hash) WHERE stream_id = $1',
      [stream],
    );
    const report = await since.verify();
    expect(report.outcome).toBe('failed');
    expect(report.checkpoint).toBeNull();
    expect(report.differences).toEqual([
      expect.objectContaining({
        source: 'checkpoint',
        message: `heads digest of bucket ${bucketOf(stream, 256)} differs`,
      }),
    ]);
    expect(await checkpointCount()).toBe(checkpointsBefore);
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
  });

  it('catches a bucket digest edited, against the header’s digest over them all (ADR 0122)', async () => {
    const verified = await full.verify({ writeCheckpoint: true });
    if (!verified.checkpoint?.written) throw new Error('no checkpoint');
    await testApp.dataSource.query(
      `UPDATE ledger_verify_state_buckets SET balances_digest = md5(balances_digest) WHERE bucket = 7`,
    );
    const report = await since.verify();
    expect(report.outcome).toBe('failed');
    expect(report.differences).toEqual([
      expect.objectContaining({
        source: 'checkpoint',
        subject: `checkpoint ${verified.checkpoint.header.checkpointId}`,
        message: 'balances digest differs',
      }),
    ]);
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
  });

  it('chains since-checkpoint verifies, each reading and writing only the buckets its window touches', async () => {
    const verified = await full.verify({ writeCheckpoint: true });
    if (!verified.checkpoint?.written) throw new Error('no checkpoint');
    const { bucketCount } = verified.checkpoint.header;
    let previous = verified.checkpoint.header;
    for (const round of [1, 2, 3]) {
      await transfer(round % 2 ? alice : bob, round % 2 ? bob : alice, round);
      await deposit(alice, round);
      const before = await stateRows();
      const report = await since.verify();
      expect(report.differences).toEqual([]);
      if (!report.checkpoint?.written) throw new Error(`no checkpoint: ${JSON.stringify(report.checkpoint)}`);
      const header = report.checkpoint.header;
      expect(header).toMatchObject({ kind: 'SINCE', previousHash: previous.hash, bucketCount });
      expect(report.from?.hash).toBe(previous.hash);

      // What it read: every bucket's digests, and the rows of the buckets its events' streams and accounts lie in.
      const window = await testApp.dataSource.query<Array<{ stream_id: string; type: string; data: unknown }>>(
        `SELECT e.stream_id, e.type, e.data FROM event_commits c
           JOIN events e ON e.global_position BETWEEN c.first_position AND c.last_position
                        AND e.transaction_id = c.transaction_id
          WHERE c.commit_position > $1::bigint AND c.commit_position <= $2::bigint`,
        [previous.commitPosition, header.commitPosition],
      );
      const keys = window.flatMap((event) => [
        event.stream_id,
        ...accountsReplayReads({ streamId: event.stream_id, type: event.type, data: event.data }),
      ]);
      const touched = new Set(keys.map((key) => bucketOf(key, bucketCount)));
      const rowsIn = (rows: Map<string, { bucket: number }>) =>
        [...rows.values()].filter((row) => touched.has(row.bucket)).length;
      expect(report.counts.bucketDigestsRead).toBe(bucketCount);
      expect(report.counts.bucketsTouched).toBe(touched.size);
      expect(touched.size).toBeLessThan(bucketCount);
      expect(report.counts.headRowsRead).toBe(rowsIn(before.heads));
      expect(report.counts.balanceRowsRead).toBe(rowsIn(before.balances));
      expect(report.counts.headRowsRead).toBeLessThan(before.heads.size);

      // What it wrote: the rows that moved and their buckets' digests; every other row is the one that was there.
      const after = await stateRows();
      const rewritten = (was: Map<string, { xmin: string }>, now: Map<string, { xmin: string; bucket: number }>) =>
        [...now].filter(([key, row]) => was.get(key)?.xmin !== row.xmin).map(([, row]) => row.bucket);
      const headsWritten = rewritten(before.heads, after.heads);
      const balancesWritten = rewritten(before.balances, after.balances);
      const bucketsWritten = rewritten(before.buckets, after.buckets);
      expect(headsWritten.length).toBe(report.counts.headRowsWritten);
      expect(headsWritten.length).toBe(report.counts.streamsTouched);
      expect(balancesWritten.length).toBeLessThanOrEqual(report.counts.balanceRowsWritten);
      expect(bucketsWritten.length).toBe(report.counts.bucketsWritten);
      for (const bucket of [...headsWritten, ...balancesWritten, ...bucketsWritten])
        expect(touched.has(bucket)).toBe(true);
      previous = header;
    }

    // Three SINCE checkpoints on, the state is the one a full verify finds at the same position.
    const again = await full.verify({ writeCheckpoint: true });
    if (!again.checkpoint?.written) throw new Error('no checkpoint');
    expect(again.checkpoint.header.balancesDigest).toBe(previous.balancesDigest);
    if (again.checkpoint.header.commitPosition === previous.commitPosition)
      expect(again.checkpoint.header.headsDigest).toBe(previous.headsDigest);
  });

  it('rewrites on a full verify only the state rows that differ, and drops those its state no longer holds', async () => {
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    const unmoved = await stateValues();
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    // Nothing happened in between: every row is the one the first wrote.
    expect(await stateValues()).toEqual(unmoved);

    await transfer(alice, bob, 2);
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    const moved = await stateValues();
    const differs = (was: Map<string, string>, now: Map<string, string>) =>
      [...now].filter(([key, row]) => was.get(key) !== row).map(([key]) => key);
    // A row was rewritten (its xmin changed) exactly when its value changed.
    for (const table of ['heads', 'balances', 'buckets'] as const) {
      const rewritten = differs(unmoved[table].xmin, moved[table].xmin).sort();
      expect(rewritten).toEqual(differs(unmoved[table].value, moved[table].value).sort());
      expect(rewritten.length).toBeLessThan(moved[table].xmin.size);
    }
    expect(differs(unmoved.heads.value, moved.heads.value).length).toBeGreaterThanOrEqual(2);

    // Bob spends all he has, and the next checkpoint is a full one: his balance row has no key in the new state.
    const bobAccount = `user:${bob.userUuid}`;
    const [{ balance_minor: bobMinor }] = await testApp.dataSource.query<Array<{ balance_minor: string }>>(
      'SELECT balance_minor::text FROM account_balances WHERE account = $1',
      [bobAccount],
    );
    expect(Number(bobMinor)).toBeGreaterThan(0);
    await transfer(bob, alice, Number(bobMinor) / 100);
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    const emptied = await stateValues();
    expect(emptied.balances.value.has(bobAccount)).toBe(false);
    const [{ count: held }] = await testApp.dataSource.query<Array<{ count: string }>>(
      "SELECT count(*)::text AS count FROM account_balances WHERE balance_minor <> 0 AND account LIKE 'user:%'",
    );
    expect([...emptied.balances.value.keys()].filter((key) => key.startsWith('user:'))).toHaveLength(Number(held));
    await deposit(bob, 1);
    const report = await since.verify();
    expect(report.differences).toEqual([]);
    expect(report.outcome).toBe('verified');
  });

  it('answers that there is no checkpoint, exit 3, once the migration to buckets dropped the old ones', async () => {
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    const migration = new LedgerVerifyStateBuckets1772200012200();
    const queryRunner = testApp.dataSource.createQueryRunner();
    try {
      await migration.down(queryRunner);
      // A checkpoint as ADR 0111 wrote it, with its rows.
      const [old] = await queryRunner.query(
        `INSERT INTO ledger_verify_checkpoints
           (kind, commit_position, created_at, events_verified, balances_digest, heads_digest, previous_hash, hash)
         VALUES ('FULL', 1, now(), 1, 'b', 'h', NULL, 'x') RETURNING checkpoint_id`,
      );
      await queryRunner.query(
        `INSERT INTO ledger_verify_checkpoint_heads (checkpoint_id, stream_id, version, last_hash) VALUES ($1, 's', 1, 'h')`,
        [old.checkpoint_id],
      );
      await migration.up(queryRunner);
    } finally {
      await queryRunner.release();
    }
    expect(await checkpointCount()).toBe(0);
    await expect(sinceFromCli()).resolves.toMatchObject({ code: 3, json: { outcome: 'no-checkpoint' } });
    expect((await full.verify({ writeCheckpoint: true })).ok).toBe(true);
    await deposit(bob, 1);
    expect((await since.verify()).outcome).toBe('verified');
  });

  /** The state rows with the transaction that last wrote each (its xmin), by key. */
  async function stateRows(): Promise<{
    heads: Map<string, { bucket: number; xmin: string }>;
    balances: Map<string, { bucket: number; xmin: string }>;
    buckets: Map<string, { bucket: number; xmin: string }>;
  }> {
    const read = async (sql: string) =>
      new Map(
        (await testApp.dataSource.query<Array<{ key: string; bucket: number; xmin: string }>>(sql)).map((row) => [
          row.key,
          { bucket: row.bucket, xmin: row.xmin },
        ]),
      );
    return {
      heads: await read('SELECT stream_id AS key, bucket, xmin::text FROM ledger_verify_state_heads'),
      balances: await read('SELECT account AS key, bucket, xmin::text FROM ledger_verify_state_balances'),
      buckets: await read('SELECT bucket::text AS key, bucket, xmin::text FROM ledger_verify_state_buckets'),
    };
  }

  /** Each state row's value and the transaction that last wrote it (its xmin), by key, per table. */
  async function stateValues(): Promise<
    Record<'heads' | 'balances' | 'buckets', { value: Map<string, string>; xmin: Map<string, string> }>
  > {
    const read = async (sql: string) => {
      const rows = await testApp.dataSource.query<Array<{ key: string; value: string; xmin: string }>>(sql);
      return {
        value: new Map(rows.map((row) => [row.key, row.value])),
        xmin: new Map(rows.map((row) => [row.key, row.xmin])),
      };
    };
    return {
      heads: await read(
        "SELECT stream_id AS key, concat_ws(' ', bucket, version, last_hash) AS value, xmin::text FROM ledger_verify_state_heads",
      ),
      balances: await read(
        "SELECT account AS key, concat_ws(' ', bucket, balance_minor) AS value, xmin::text FROM ledger_verify_state_balances",
      ),
      buckets: await read(
        "SELECT bucket::text AS key, concat_ws(' ', heads_digest, balances_digest) AS value, xmin::text FROM ledger_verify_state_buckets",
      ),
    };
  }

  async function checkpointCount(): Promise<number> {
    const [row] = await testApp.dataSource.query<Array<{ count: string }>>(
      'SELECT count(*)::text AS count FROM ledger_verify_checkpoints',
    );
    return Number(row.count);
  }
});
