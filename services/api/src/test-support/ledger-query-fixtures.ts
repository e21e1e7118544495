import { type Page, type Payment, PUBLIC_STAFF_ACTOR_NAME } from '@kupa/proto';
import type { TestApp } from './test-app';

/** A manual deposit (or withdrawal) by an admin through `POST /api/payments`; answers the payment. */
export async function manualPayment(
  testApp: TestApp,
  adminToken: string,
  userUuid: string,
  amount: number,
  comment: string,
  action: 'DEPOSIT' | 'WITHDRAW' = 'DEPOSIT',
): Promise<Payment> {
  const response = await testApp.http
    .post('/api/payments')
    .set('Authorization', `Bearer ${adminToken}`)
    .send({ userUuid, amount, action, comment });
  if (response.status !== 201)
    throw new Error(`Manual payment answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Payment;
}

/** A client's transfer through `POST /api/payments/transfer`; answers the sender's TRANSFER_OUT payment. */
export async function transfer(
  testApp: TestApp,
  senderToken: string,
  recipient: string,
  amount: number,
): Promise<Payment> {
  const response = await testApp.http
    .post('/api/payments/transfer')
    .set('Authorization', `Bearer ${senderToken}`)
    .send({ recipient, amount });
  if (response.status !== 201)
    throw new Error(`Transfer answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Payment;
}

/**
 * Fills `payments` with `count` rows straight in SQL, for tests of the read side alone (export memory, paging at
 * scale). These rows have no events behind them, so `kupa ledger verify` would rightly flag them.
 */
export async function seedPaymentRows(
  testApp: TestApp,
  count: number,
  userUuid: string,
  userEmail: string,
): Promise<void> {
  await testApp.dataSource.query(
    `INSERT INTO payments (payment_id, user_uuid, user_email, amount_minor, currency, status, method, type, aggregator, comment,
       counter_account, correction, created_at, created_by, updated_at, updated_by, search_text, created_by_public,
       updated_by_public)
     SELECT 1000000 + g, $2::uuid, $3, 100 + g % 9999, 'USD', 'SUCCESS', 'MANUAL_TRANSFER', 'DEPOSIT', 'MANUAL', 'seeded row ' || g,
       'world:manual', false, timestamptz '2024-01-01' + g * interval '1 second', 'seed', timestamptz '2024-01-01' + g * interval '1 second',
       'seed', lower((1000000 + g) || ' ' || $3 || ' seeded row ' || g), $4, $4
       FROM generate_series(1, $1::int) AS g`,
    [count, userUuid, userEmail, PUBLIC_STAFF_ACTOR_NAME],
  );
}

/**
 * Books `count` deposits of $1.00 to a user's wallet straight into `ledger_entries`, an hour apart from `from`, with
 * their running balance and payment numbers from 900001, for tests of a statement's rendering alone (a long statement's pages). No events or payments
 * stand behind them, so `kupa ledger verify` would rightly flag them: use a user of their own.
 */
export async function seedWalletPostings(testApp: TestApp, userUuid: string, count: number, from: Date): Promise<void> {
  await testApp.dataSource.query(
    `INSERT INTO ledger_entries (transaction_id, posting_index, account, counter_account, amount_minor,
       balance_after_minor, payment_id, event_type, occurred_at, global_position)
     SELECT gen_random_uuid(), 0, 'user:' || $2, 'world:manual', 100, 100 * g, 900000 + g, 'ManualDepositRecorded',
       $3::timestamptz + g * interval '1 hour', 0
       FROM generate_series(1, $1::int) AS g`,
    [count, userUuid, from],
  );
}

/** `POST /api/payments/search` (or a named client's, `/search/{userUuid}`) as the token's holder; the raw response. */
export function searchPayments(testApp: TestApp, token: string, body: Record<string, unknown>, userUuid?: string) {
  return testApp.http
    .post(userUuid ? `/api/payments/search/${userUuid}` : '/api/payments/search')
    .set('Authorization', `Bearer ${token}`)
    .send(body);
}

/** The payment ids of a search's page, in its order. */
export const paymentIds = (response: { body: Page<Payment> }): number[] =>
  response.body.content.map((payment) => payment.paymentId);
