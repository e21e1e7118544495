import {
  type CardCheckoutResponse,
  type Page,
  parseAmountToMinor,
  type Plan,
  type Subscription,
  type User,
} from '@kupa/proto';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { systemContext } from '../../platform/auth';
import { InlineProjectionRegistry } from '../../platform/projections';
import { ReadModelReplayCheck } from '../../platform/projections/read-model-replay-check';
import { eventually } from '../../test-support/eventually';
import { type ActiveUser, adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import type { TestApp } from '../../test-support/test-app';
import { ActivateSubscriptionCommand } from './commands/activate-subscription/activate-subscription.command';

/** Helpers the subscriptions specs share. They go through HTTP, except where the streaming service would act. */

let logins = 0;

/** A login no other spec in the run uses: specs share nothing, but a file's tests share one database. */
export function uniqueLogin(prefix = 'tv'): string {
  logins += 1;
  return `${prefix}.${randomUUID().slice(0, 8)}${logins}`;
}

/** The card checkout route of a package (`POST`, a client's token). */
export const CARD_CHECKOUT = (planId: string) => `/api/stripe/create-checkout-session/payment-plans/${planId}`;

/** A new client's card checkout of the package, as the portal opens it; `sessionId` is the checkout URL's last part. */
export async function openCardCheckout(testApp: TestApp, planId: string, loginPrefix: string) {
  const client = await createActiveUser(testApp);
  const login = uniqueLogin(loginPrefix);
  const response = await testApp.http
    .post(CARD_CHECKOUT(planId))
    .set('Authorization', `Bearer ${client.accessToken}`)
    .send({ login, password: 'secret-pass' });
  expect(response.status).toBe(201);
  const answer = response.body as CardCheckoutResponse;
  const sessionId = new URL(answer.url).pathname.split('/').pop() as string;
  return { ...answer, sessionId, client, login };
}

export async function createPlan(testApp: TestApp, overrides: Partial<Plan> = {}): Promise<Plan> {
  const response = await testApp.http
    .post('/api/payment-plans')
    .set('Authorization', `Bearer ${await adminToken(testApp)}`)
    .send({
      name: `Gold ${randomUUID().slice(0, 8)}`,
      durationInMonths: 1,
      price: 10,
      currency: 'USD',
      isRecurrent: true,
      description: 'Every channel',
      features: ['HD'],
      status: 'ACTIVE',
      ...overrides,
    });
  if (response.status !== 201) throw new Error(`Package creation answered ${response.status}`);
  return response.body as Plan;
}

/** A client (or ambassador) with `amount` dollars on the balance, deposited by an admin. */
export async function customerWithBalance(
  testApp: TestApp,
  amount: number,
  options: Parameters<typeof createActiveUser>[1] = {},
): Promise<ActiveUser> {
  const customer = await createActiveUser(testApp, options);
  if (amount > 0) {
    const deposit = await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ userUuid: customer.userUuid, amount, action: 'DEPOSIT', comment: 'fixture deposit' });
    if (deposit.status !== 201) throw new Error(`Deposit answered ${deposit.status}`);
  }
  return customer;
}

/** A client whose balance is `debt` dollars below zero (`overdraw`). */
export async function customerInDebt(testApp: TestApp, debt: number): Promise<ActiveUser> {
  const customer = await createActiveUser(testApp);
  await overdraw(testApp, customer.userUuid, debt);
  return customer;
}

/**
 * Takes `amount` dollars off the balance the one way a balance goes below zero: staff book a deposit, pay it out,
 * then mark the deposit FAILED and confirm the overdraft.
 */
export async function overdraw(testApp: TestApp, userUuid: string, amount: number): Promise<void> {
  const admin = await adminToken(testApp);
  const book = (action: 'DEPOSIT' | 'WITHDRAW') =>
    testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid, amount, action, comment: 'fixture' });
  const deposit = await book('DEPOSIT');
  const payout = await book('WITHDRAW');
  const reversed = await testApp.http
    .put(`/api/payments/${(deposit.body as { paymentId: number }).paymentId}/status`)
    .set('Authorization', `Bearer ${admin}`)
    .send({ status: 'FAILED', confirmNegativeBalance: true });
  if ([deposit.status, payout.status, reversed.status].join() !== '201,201,200')
    throw new Error(`Overdraft fixture answered ${deposit.status}, ${payout.status}, ${reversed.status}`);
}

export function buy(testApp: TestApp, token: string, planId: string, body: object, idempotencyKey?: string) {
  const call = testApp.http
    .post(`/api/subscriptions/balance/payment-plans/${planId}`)
    .set('Authorization', `Bearer ${token}`);
  return (idempotencyKey ? call.set('Idempotency-Key', idempotencyKey) : call).send(body);
}

/** Buys and expects the PENDING subscription. */
export async function bought(testApp: TestApp, customer: ActiveUser, planId: string): Promise<Subscription> {
  const response = await buy(testApp, customer.accessToken, planId, { login: uniqueLogin(), password: 'pass-1234' });
  if (response.status !== 201)
    throw new Error(`Purchase answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Subscription;
}

/**
 * What provisioning does once the streaming service holds the account: the subscription's first period starts.
 * The real command with the system actor, as the provisioning processor runs it.
 */
export async function activate(testApp: TestApp, subscriptionId: string): Promise<Subscription> {
  await testApp.app.get(CommandBus).execute(new ActivateSubscriptionCommand(subscriptionId, systemContext()));
  return read(testApp, subscriptionId);
}

export async function read(testApp: TestApp, subscriptionId: string): Promise<Subscription> {
  const response = await testApp.http
    .get(`/api/subscriptions/${subscriptionId}`)
    .set('Authorization', `Bearer ${await adminToken(testApp)}`);
  if (response.status !== 200) throw new Error(`Read answered ${response.status}`);
  return response.body as Subscription;
}

/** The subscription once the real provisioning (the built-in simulator) has answered for it: no longer PENDING. */
export function settled(testApp: TestApp, subscriptionId: string, timeoutMs = 15_000): Promise<Subscription> {
  return eventually(
    () => read(testApp, subscriptionId),
    (subscription) => subscription.status !== 'PENDING',
    `subscription ${subscriptionId} leaves PENDING`,
    timeoutMs,
  );
}

export async function search(testApp: TestApp, token: string, body: object): Promise<Page<Subscription>> {
  const response = await testApp.http
    .post('/api/subscriptions/search')
    .set('Authorization', `Bearer ${token}`)
    .send(body);
  if (response.status !== 200) throw new Error(`Search answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body as Page<Subscription>;
}

/** A user's balance in cents, as staff read it on the user (the ledger's figure, through identity's port). */
export async function balanceMinorOf(testApp: TestApp, userUuid: string): Promise<number> {
  const response = await testApp.http
    .get(`/api/users/${userUuid}`)
    .set('Authorization', `Bearer ${await adminToken(testApp)}`);
  if (response.status !== 200) throw new Error(`User read answered ${response.status}`);
  // A confirmed overdraft reads negative, which the input parser refuses: its size is parsed, the sign kept.
  const { balance } = response.body as User;
  const parsed = parseAmountToMinor(Math.abs(balance), { allowZero: true });
  if (!parsed.ok) throw new Error(`Unreadable balance ${balance}`);
  return balance < 0 ? -parsed.amountMinor : parsed.amountMinor;
}

export async function countRows(testApp: TestApp, sql: string, parameters: unknown[] = []): Promise<number> {
  const [{ count }]: Array<{ count: string }> = await testApp.dataSource.query(sql, parameters);
  return Number(count);
}

/** Replays every event into shadow copies of the checked read models and expects no row to differ. */
export async function expectReadModelsToEqualReplay(testApp: TestApp): Promise<void> {
  const check = new ReadModelReplayCheck(testApp.dataSource, testApp.app.get(InlineProjectionRegistry));
  const report = await check.run();
  expect(report.projections).toContain('subscriptions');
  expect(report.mismatches).toEqual([]);
}

/** `kupa ledger verify` on the test app's database, expected clean (the subscriptions table among its read models). */
export { expectLedgerVerifyOk } from '../../test-support/ledger-verification';
