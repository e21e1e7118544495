import fc from 'fast-check';
import type { Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken, createActiveUser } from '../../test-support/identity-fixtures';
import { InlineProjectionRegistry } from '../../platform/projections';
import { startTestApp, type TestApp } from '../../test-support/test-app';
import { LedgerVerifier } from '../../operations/verify';
import { expectReadModelsToEqualReplay } from './ledger.fixtures';

type Step =
  | { kind: 'manual'; user: number; amountCents: number; action: 'DEPOSIT' | 'WITHDRAW'; correction: boolean }
  | { kind: 'transfer'; from: number; to: number; amountCents: number }
  | { kind: 'status'; pick: number; status: 'SUCCESS' | 'FAILED' | 'REJECTED'; confirm: boolean };

const USER_COUNT = 3;
/** Real HTTP on a real database: few runs of short sequences keep the suite quick while still mixing every command. */
const PROPERTY_RUNS = 15;
const STEPS_MAX = 20;

/** Up to 300.00, so the ambassador's deposits cross the first two bonus tiers and some stay below them. */
const amountCents = fc.integer({ min: 1, max: 30_000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('manual' as const),
    user: fc.nat(USER_COUNT - 1),
    amountCents,
    action: fc.constantFrom('DEPOSIT' as const, 'WITHDRAW' as const),
    correction: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('transfer' as const),
    from: fc.nat(USER_COUNT - 1),
    to: fc.nat(USER_COUNT - 1),
    amountCents,
  }),
  fc.record({
    kind: fc.constant('status' as const),
    pick: fc.nat(),
    status: fc.constantFrom('SUCCESS' as const, 'FAILED' as const, 'REJECTED' as const),
    confirm: fc.boolean(),
  }),
);

/** Refusals a random sequence may legitimately meet; anything else (a 500 above all) fails the property. */
const EXPECTED_REFUSALS = new Set([
  'error.withdrawal.exceeds.balance',
  'error.insufficient.balance',
  'error.transfer.to.self',
  'error.balance.negative.confirmation.required',
  'error.payment.status.manual.only',
]);

describe('ledger invariants through the API on PostgreSQL', () => {
  let testApp: TestApp;
  let admin: string;
  let users: ActiveUser[];

  beforeAll(async () => {
    testApp = await startTestApp();
    admin = await adminToken(testApp);
    // The first user is an ambassador: their deposits book bonuses, which status changes take back and bring back.
    users = await Promise.all(
      Array.from({ length: USER_COUNT }, (_, index) =>
        createActiveUser(testApp, index === 0 ? { role: 'AMBASSADOR' } : {}),
      ),
    );
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('never leaves a user negative without a recorded override, balances every transaction, replays to the read models and verifies', async () => {
    const paymentIds: number[] = [];
    const verifier = new LedgerVerifier(testApp.dataSource, testApp.app.get(InlineProjectionRegistry));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: STEPS_MAX }), async (steps) => {
        for (const current of steps) {
          let response;
          if (current.kind === 'manual') {
            response = await testApp.http
              .post('/api/payments')
              .set('Authorization', `Bearer ${admin}`)
              .set('Idempotency-Key', randomUUID())
              .send({
                userUuid: users[current.user].userUuid,
                amount: current.amountCents / 100,
                action: current.action,
                comment: 'property',
                correction: current.correction,
              });
          } else if (current.kind === 'transfer') {
            response = await testApp.http
              .post('/api/payments/transfer')
              .set('Authorization', `Bearer ${users[current.from].accessToken}`)
              .send({ recipient: users[current.to].email, amount: current.amountCents / 100 });
          } else {
            if (paymentIds.length === 0) continue;
            response = await testApp.http
              .put(`/api/payments/${paymentIds[current.pick % paymentIds.length]}/status`)
              .set('Authorization', `Bearer ${admin}`)
              .send({ status: current.status, confirmNegativeBalance: current.confirm });
          }
          if (response.status >= 300) {
            expect(EXPECTED_REFUSALS).toContain(response.body.error);
          } else if (current.kind !== 'status') {
            paymentIds.push((response.body as Payment).paymentId);
          }
        }
        await expectReadModelsToEqualReplay(testApp);
        // What an auditor runs: hash chains, the independent replay and every read model, with no difference.
        const verification = await verifier.verify();
        expect(verification.differences).toEqual([]);
        expect(verification.ok).toBe(true);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});
