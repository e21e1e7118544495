import type { Payment, Plan } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { CLI_COMMANDS } from '../../cli.commands';
import { InlineProjectionRegistry } from '../../platform/projections';
import { type ActiveUser, adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { LedgerVerifier } from './ledger-verifier';
import { SinceCheckpointVerifier } from './since-checkpoint-verifier';

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
          'SELECT count(*)::text AS count FROM event_commits WHERE commit_position > $1::bigint',
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
    // Only the newest checkpoint keeps its balances and heads; the older headers keep the chain.
    const rowsOf = await testApp.dataSource.query<Array<{ checkpoint_id: string }>>(
      `SELECT DISTINCT checkpoint_id::text FROM ledger_verify_checkpoint_heads
       UNION SELECT DISTINCT checkpoint_id::text FROM ledger_verify_checkpoint_balances`,
    );
    expect(rowsOf).toEqual([{ checkpoint_id: String(again.checkpoint.header.checkpointId) }]);
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
    await testApp.dataSource.query(
      `UPDATE ledger_verify_checkpoint_balances SET balance_minor = balance_minor + 5000
        WHERE checkpoint_id = $1 AND account = $2`,
      [tampered, `user:${alice.userUuid}`],
    );
    const rowEdited = await since.verify();
    expect(rowEdited.outcome).toBe('failed');
    expect(rowEdited.differences).toEqual([
      expect.objectContaining({
        source: 'checkpoint',
        subject: `checkpoint ${tampered}`,
        message: 'balances digest differs',
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

  async function checkpointCount(): Promise<number> {
    const [row] = await testApp.dataSource.query<Array<{ count: string }>>(
      'SELECT count(*)::text AS count FROM ledger_verify_checkpoints',
    );
    return Number(row.count);
  }
});
