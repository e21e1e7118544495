/**
 * What one purchase with the balance writes (issue 36: purchases/s against the peer's transfers/s; docs/benchmarks.md,
 * "Issue 36: what one purchase writes"). A helper, not a scenario of `npm run bench`: it starts the built server (build
 * first: `npm run build:proto && npm run build -w @kupa/api`) on a fresh database of the PostgreSQL named by
 * `DATABASE_URL`, with its background work and the streaming simulator, through the counting relay of
 * `write-inventory.ts`; makes a funded client and a package as the bench's purchase scenario does, warms up with a
 * few purchases (each until ACTIVE), and then for one purchase prints as JSON what `write-inventory.ts` describes, the
 * after-work being the provisioning jobs and processors until the subscription is ACTIVE and no job is pending.
 *
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx test/bench/purchase-writes.ts` (about a minute).
 */
import { randomUUID } from 'node:crypto';
import { createUsers, deposit } from './http.ts';
import { createPlan, PROVISIONING_LEFT, waitForNone } from './subscriptions.ts';
import { countWrites, sleep } from './write-inventory.ts';

const WARM_UP_PURCHASES = 4;
const PROVISIONED_WITHIN_MS = 60_000;
/** After the last job: the processors' turn on its events (the activation's notice and mail). */
const PROCESSORS_MS = 1_500;

await countWrites({
  async prepare(api, admin, baseUrl, db) {
    const planId = await createPlan(api, admin, { name: 'Writes yearly', durationInMonths: 12, isRecurrent: true });
    const [buyer] = await createUsers(api, admin, 1, `writes-${randomUUID().slice(0, 8)}`, true);
    await deposit(api, admin, buyer.userUuid, 1000, 'purchase-writes float');
    let purchases = 0;
    const purchase = async () => {
      purchases += 1;
      const response = await fetch(`${baseUrl}/api/subscriptions/balance/payment-plans/${planId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${buyer.token}` },
        body: JSON.stringify({ login: `writes-${randomUUID().slice(0, 8)}-${purchases}`, password: 'bench-pass' }),
      });
      const answer: unknown = await response.json();
      if (response.status !== 201) throw new Error(`Purchase answered ${response.status}: ${JSON.stringify(answer)}`);
      return answer;
    };
    const settle = async () => {
      await waitForNone(db, PROVISIONING_LEFT, 'subscriptions and provisioning jobs', PROVISIONED_WITHIN_MS);
      await sleep(PROCESSORS_MS);
    };
    for (let index = 0; index < WARM_UP_PURCHASES; index += 1) {
      await purchase();
      await settle();
    }
    return { run: purchase, settle };
  },
});
