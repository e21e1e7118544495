import type { Payment, User } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { adminToken } from '../../test-support/identity-fixtures';
import type { TestApp } from '../../test-support/test-app';
import { UserBalances } from '../identity';
import { type ReplayableEvent, replayLedger } from './domain/replay-ledger';

/** Helpers the ledger's API and integration specs share. They go through HTTP like any client would. */
export async function depositAs(
  testApp: TestApp,
  userUuid: string,
  amount: number,
  correction = false,
): Promise<Payment> {
  const response = await testApp.http
    .post('/api/payments')
    .set('Authorization', `Bearer ${await adminToken(testApp)}`)
    .set('Idempotency-Key', randomUUID())
    .send({ userUuid, amount, action: 'DEPOSIT', comment: 'fixture deposit', correction });
  if (response.status !== 201) throw new Error(`Deposit answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Payment;
}

/** The user's balance in cents as the `User` payload shows it (identity's reader, fed by the ledger's balances). */
export async function balanceMinorOf(testApp: TestApp, userUuid: string): Promise<number> {
  const response = await testApp.http
    .get(`/api/users/${userUuid}`)
    .set('Authorization', `Bearer ${await adminToken(testApp)}`);
  if (response.status !== 200)
    throw new Error(`User read answered ${response.status}: ${JSON.stringify(response.body)}`);
  // A balance may be negative (a confirmed overdraft), which the input parser `parseAmountToMinor` refuses.
  return Math.round((response.body as User).balance * 100);
}

/** Every stored event in store order, shaped for `replayLedger`. */
export async function storedEvents(testApp: TestApp): Promise<ReplayableEvent[]> {
  const rows: Array<{
    stream_id: string;
    stream_version: number;
    type: string;
    data: unknown;
    metadata: ReplayableEvent['metadata'];
    global_position: string;
  }> = await testApp.dataSource.query(
    'SELECT stream_id, stream_version, type, data, metadata, global_position::text AS global_position FROM events ORDER BY events.global_position',
  );
  return rows.map((row) => ({
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    globalPosition: row.global_position,
  }));
}

/**
 * Replays every stored event and compares the result with the read models row by row: account balances, the
 * balances the ledger reports to identity for every user, ledger entries (amounts, running balances, in store
 * order), wallet snapshots and payments.
 */
export async function expectReadModelsToEqualReplay(testApp: TestApp): Promise<void> {
  const replay = replayLedger(await storedEvents(testApp));
  expect(replay.problems).toEqual([]);

  const balances: Array<{ account: string; balance_minor: string }> = await testApp.dataSource.query(
    'SELECT account, balance_minor FROM account_balances ORDER BY account',
  );
  const replayedUserBalances = Object.entries(replay.accountBalances)
    .filter(([account]) => account.startsWith('user:'))
    .sort(([left], [right]) => (left < right ? -1 : 1));
  expect(balances.map((row) => [row.account, Number(row.balance_minor)])).toEqual(replayedUserBalances);

  const userUuids: string[] = (await testApp.dataSource.query('SELECT uuid FROM users')).map(
    (row: { uuid: string }) => row.uuid,
  );
  const reported = await testApp.app.get(UserBalances).balancesOf(userUuids);
  for (const userUuid of userUuids)
    expect([userUuid, reported.get(userUuid) ?? 0]).toEqual([
      userUuid,
      replay.accountBalances[`user:${userUuid}`] ?? 0,
    ]);

  const entries: Array<Record<string, string | number | null>> = await testApp.dataSource.query(
    `SELECT transaction_id, posting_index, account, counter_account, amount_minor::int AS amount_minor,
            balance_after_minor::int AS balance_after_minor, payment_id::int AS payment_id, event_type
       FROM ledger_entries ORDER BY global_position, entry_id`,
  );
  expect(entries).toEqual(
    replay.entries.map((entry) => ({
      transaction_id: entry.transactionId,
      posting_index: entry.postingIndex,
      account: entry.account,
      counter_account: entry.counterAccount,
      amount_minor: entry.amountMinor,
      balance_after_minor: entry.balanceAfterMinor,
      payment_id: entry.paymentId,
      event_type: entry.eventType,
    })),
  );

  const snapshots: Array<{ stream_id: string; version: number; state: unknown }> = await testApp.dataSource.query(
    'SELECT stream_id, version, state FROM wallet_snapshots',
  );
  expect(
    Object.fromEntries(snapshots.map((row) => [row.stream_id, { version: row.version, state: row.state }])),
  ).toEqual(replay.walletSnapshots);

  const payments: Array<Record<string, unknown>> = await testApp.dataSource.query(
    `SELECT payment_id::int AS "paymentId", user_uuid AS "userUuid", amount_minor::int AS "amountMinor", status, type, aggregator,
            method, counter_account AS "counterAccount", transfer_id AS "transferId", updated_by AS "updatedBy"
       FROM payments ORDER BY payment_id`,
  );
  expect(payments).toEqual(
    Object.values(replay.payments)
      .sort((left, right) => left.paymentId - right.paymentId)
      .map((payment) => ({
        paymentId: payment.paymentId,
        userUuid: payment.userUuid,
        amountMinor: payment.amountMinor,
        status: payment.status,
        type: payment.type,
        aggregator: payment.aggregator,
        method: payment.method,
        counterAccount: payment.counterAccount,
        transferId: payment.transferId,
        updatedBy: payment.updatedBy,
      })),
  );
}
