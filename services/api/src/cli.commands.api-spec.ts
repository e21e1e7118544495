import type { Page, Payment } from '@kupa/proto';
import { adminToken, createActiveUser, type ActiveUser, signIn } from './test-support/identity-fixtures';
import { manualPayment, transfer } from './test-support/ledger-query-fixtures';
import { kupa } from './test-support/kupa-cli';
import { activityLogCaughtUp, startTestApp, type TestApp } from './test-support/test-app';

describe('kupa CLI commands', () => {
  let testApp: TestApp;
  let admin: string;
  let dana: ActiveUser;
  let omer: ActiveUser;
  let deposit: Payment;

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    dana = await createActiveUser(testApp);
    omer = await createActiveUser(testApp);
    deposit = await manualPayment(testApp, admin, dana.userUuid, 50, 'Opening deposit');
    await transfer(testApp, dana.accessToken, omer.email, 20);
    await transfer(testApp, omer.accessToken, dana.email, 5.5);
    await manualPayment(testApp, admin, omer.userUuid, 3, 'Payout', 'WITHDRAW');
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('verifies a clean ledger', async () => {
    const { code, output } = await kupa(testApp, 'ledger', 'verify');
    expect(output).toContain('Ledger verified: no differences.');
    expect(output).toMatch(/4 transactions, 6 payments/);
    expect(code).toBe(0);
    const json = await kupa(testApp, 'ledger', 'verify', '--json');
    expect(JSON.parse(json.output)).toMatchObject({
      ok: true,
      differenceCount: 0,
      counts: { payments: 6, transactions: 4 },
    });
  });

  it('names the stream and version of a hand-edited event', async () => {
    const [event]: Array<{ global_position: string; stream_id: string; stream_version: number; data: unknown }> =
      await testApp.dataSource.query(
        `SELECT global_position::text, stream_id, stream_version, data FROM events
          WHERE stream_id = $1 AND type = 'ManualDepositRecorded'`,
        [`wallet-${dana.userUuid}`],
      );
    await testApp.dataSource.query(
      `UPDATE events SET data = jsonb_set(data, '{transaction,postings,0,amountMinor}', '500000') WHERE global_position = $1`,
      [event.global_position],
    );
    try {
      const { code, output } = await kupa(testApp, 'ledger', 'verify');
      expect(code).toBe(1);
      expect(output).toContain('Ledger verification FAILED');
      expect(output).toContain(`[hash-chain] stream ${event.stream_id} v${event.stream_version}: hash-mismatch`);
      // The edited amount also no longer matches what the read models booked.
      expect(output).toMatch(/\[ledger_entries\].*amount_minor differs \(expected -?500000, actual -?5000\)/);
    } finally {
      await testApp.dataSource.query('UPDATE events SET data = $2::jsonb WHERE global_position = $1', [
        event.global_position,
        JSON.stringify(event.data),
      ]);
    }
    expect((await kupa(testApp, 'ledger', 'verify')).code).toBe(0);
  });

  it('names the payment of a tampered read model row', async () => {
    await testApp.dataSource.query('UPDATE payments SET amount_minor = amount_minor + 1 WHERE payment_id = $1', [
      deposit.paymentId,
    ]);
    await testApp.dataSource.query(`UPDATE account_balances SET balance_minor = balance_minor + 7 WHERE account = $1`, [
      `user:${omer.userUuid}`,
    ]);
    try {
      const { code, output } = await kupa(testApp, 'ledger', 'verify');
      expect(code).toBe(1);
      expect(output).toContain(
        `[payments] payment ${deposit.paymentId}: amount_minor differs (expected 5000, actual 5001)`,
      );
      expect(output).toContain(
        `[account_balances] account user:${omer.userUuid}: balance_minor differs (expected 1150, actual 1157)`,
      );
      expect(output).toContain('2 difference(s)');
    } finally {
      await testApp.dataSource.query('UPDATE payments SET amount_minor = amount_minor - 1 WHERE payment_id = $1', [
        deposit.paymentId,
      ]);
      await testApp.dataSource.query(
        `UPDATE account_balances SET balance_minor = balance_minor - 7 WHERE account = $1`,
        [`user:${omer.userUuid}`],
      );
    }
  });

  it('compares the users, notes and activity log with a replay of every event, and names the rows that differ', async () => {
    const clean = JSON.parse((await kupa(testApp, 'ledger', 'verify', '--json')).output);
    // Four users (the admin, two clients) plus their activity-log rows and target states are all compared.
    expect(clean.counts.otherReadModelRows).toBeGreaterThan(10);
    const note = await testApp.http
      .post(`/api/users/${dana.userUuid}/notes`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ text: 'Called about a refund' });
    expect(note.status).toBe(201);
    await activityLogCaughtUp(testApp);
    const [entry]: Array<{ id: string; target_id: string }> = await testApp.dataSource.query(
      `SELECT id, target_id FROM audit_logs WHERE target_id = $1 ORDER BY global_position LIMIT 1`,
      [dana.userUuid],
    );
    const [{ last_name: lastName }]: Array<{ last_name: string }> = await testApp.dataSource.query(
      'SELECT last_name FROM users WHERE uuid = $1',
      [omer.userUuid],
    );
    await testApp.dataSource.query(`UPDATE users SET last_name = 'Edited' WHERE uuid = $1`, [omer.userUuid]);
    await testApp.dataSource.query(`UPDATE user_notes SET text = 'Hidden' WHERE id = $1`, [note.body.id]);
    await testApp.dataSource.query(`DELETE FROM audit_logs WHERE id = $1`, [entry.id]);
    const [state]: Array<{ target_kind: string; target_id: string; fields: unknown }> = await testApp.dataSource.query(
      `SELECT target_kind, target_id, fields FROM audit_target_states WHERE target_id = $1`,
      [dana.userUuid],
    );
    await testApp.dataSource.query(
      `UPDATE audit_target_states SET fields = fields || '{"forged": true}' WHERE target_kind = $1 AND target_id = $2`,
      [state.target_kind, state.target_id],
    );
    try {
      const { code, output } = await kupa(testApp, 'ledger', 'verify');
      expect(code).toBe(1);
      expect(output).toContain(`[read-model] users uuid=${omer.userUuid}: the replay makes this row`);
      expect(output).toContain(`[read-model] users uuid=${omer.userUuid}: the read model holds this row`);
      expect(output).toContain(`[read-model] user_notes id=${note.body.id}: the replay makes this row`);
      expect(output).toContain(`[read-model] audit_logs id=${entry.id}: the replay makes this row`);
      const stateKey = `target_kind=${state.target_kind},target_id=${state.target_id}`;
      expect(output).toContain(`[read-model] audit_target_states ${stateKey}: the replay makes this row`);
      expect(output).toContain(`[read-model] audit_target_states ${stateKey}: the read model holds this row`);
      expect(output).toContain('7 difference(s)');
    } finally {
      await testApp.dataSource.query(
        `UPDATE audit_target_states SET fields = $3::jsonb WHERE target_kind = $1 AND target_id = $2`,
        [state.target_kind, state.target_id, JSON.stringify(state.fields)],
      );
      await testApp.dataSource.query(`UPDATE users SET last_name = $2 WHERE uuid = $1`, [omer.userUuid, lastName]);
      await testApp.dataSource.query(`UPDATE user_notes SET text = 'Called about a refund' WHERE id = $1`, [
        note.body.id,
      ]);
    }
    // The deleted entry comes back with a rebuild of its read model, and the check passes again.
    expect((await kupa(testApp, 'projections', 'rebuild', 'audit-log')).code).toBe(0);
    expect((await kupa(testApp, 'ledger', 'verify')).code).toBe(0);
  });

  it('rebuilds a truncated read model from the events', async () => {
    // The swap drops the table's secondary indexes and builds them again after the copy: the same ones must be there.
    const indexesOfPayments = async (): Promise<Array<{ name: string; definition: string; valid: boolean }>> =>
      testApp.dataSource.query(
        `SELECT index_class.relname AS name, pg_get_indexdef(pg_index.indexrelid) AS definition,
                pg_index.indisvalid AS valid
           FROM pg_index JOIN pg_class index_class ON index_class.oid = pg_index.indexrelid
          WHERE pg_index.indrelid = 'payments'::regclass ORDER BY index_class.relname`,
      );
    const indexesBefore = await indexesOfPayments();
    expect(indexesBefore.map((index) => index.name)).toContain('payments_search_text_trgm');
    await testApp.dataSource.query('TRUNCATE payments');
    const broken = await kupa(testApp, 'ledger', 'verify');
    expect(broken.code).toBe(1);
    expect(broken.output).toContain(`[payments] payment ${deposit.paymentId}: payment has no row`);

    const rebuilt = await kupa(testApp, 'projections', 'rebuild', 'payments');
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.output).toMatch(/^Rebuilt payments from \d+ events in \d+ ms \(\d+ events\/s\)$/);
    // The rebuild analysed the table: after a TRUNCATE the planner's row count is unknown (-1) until an ANALYZE.
    const [{ reltuples }] = await testApp.dataSource.query(
      "SELECT reltuples::int AS reltuples FROM pg_class WHERE oid = 'payments'::regclass",
    );
    expect(reltuples).toBe(6);
    expect(await indexesOfPayments()).toEqual(indexesBefore);
    expect((await kupa(testApp, 'ledger', 'verify')).code).toBe(0);
    const search = await testApp.http.post('/api/payments/search').set('Authorization', `Bearer ${admin}`).send({});
    expect((search.body as Page<Payment>).totalElements).toBe(6);

    const all = await kupa(testApp, 'projections', 'rebuild', '--json');
    expect(JSON.parse(all.output).projections).toEqual(
      expect.arrayContaining(['payments', 'ledger-entries', 'wallet-snapshots']),
    );
    expect((await kupa(testApp, 'ledger', 'verify')).code).toBe(0);
    const unknown = await kupa(testApp, 'projections', 'rebuild', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('known: ');
  });

  it('creates an admin who can sign in, and refuses a weak password', async () => {
    const created = await kupa(
      testApp,
      'users',
      'create-admin',
      '--email',
      'Ops@Kupa.test',
      '--password',
      'Ops-Admin-Pass-1!',
    );
    expect(created.code).toBe(0);
    expect(created.output).toMatch(/^Created admin ops@kupa\.test \([0-9a-f-]{36}\), ACTIVE$/);
    const token = await signIn(testApp, 'ops@kupa.test', 'Ops-Admin-Pass-1!');
    const me = await testApp.http.get('/api/users/me').set('Authorization', `Bearer ${token}`);
    expect(me.body).toMatchObject({ role: 'ADMIN', status: 'ACTIVE' });
    expect(
      (await kupa(testApp, 'users', 'create-admin', '--email', 'ops@kupa.test', '--password', 'Ops-Admin-Pass-1!'))
        .output,
    ).toMatch(/^Updated admin/);
    const weak = await kupa(testApp, 'users', 'create-admin', '--email', 'weak@kupa.test', '--password', 'short');
    expect(weak.code).toBe(2);
    expect(weak.output).toMatch(/^Refused: /);
    expect((await kupa(testApp, 'users', 'create-admin', '--email', 'x@kupa.test')).code).toBe(2);
  });

  it('migrate reports the applied schema, all of it', async () => {
    const [row] = await testApp.dataSource.query<{ applied: string }[]>(
      'SELECT count(*)::text AS applied FROM migrations',
    );
    const { code, output } = await kupa(testApp, 'migrate');
    expect(code).toBe(0);
    expect(Number(row.applied)).toBe(testApp.dataSource.migrations.length);
    expect(output).toMatch(
      new RegExp(`^Database schema up to date: ${row.applied} migrations applied, the last \\S+$`),
    );
  });

  it('refuses to republish without KAFKA_BROKERS or without a topic prefix (the Kafka specs run the rest)', async () => {
    const missing = await kupa(testApp, 'events', 'republish');
    expect(missing).toEqual({ code: 2, output: expect.stringMatching(/^--topic-prefix P is required/) as unknown });
    const unset = await kupa(testApp, 'events', 'republish', '--topic-prefix', 'replay.');
    expect(unset).toEqual({ code: 2, output: expect.stringMatching(/^KAFKA_BROKERS is not set/) as unknown });
  });
});
