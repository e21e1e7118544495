/**
 * What one balance transfer writes (issue 36, "write amplification first"; docs/benchmarks.md, "Issue 36: what one
 * transfer writes, and who reads it"). A helper, not a scenario of `npm run bench`: it starts the built server (build
 * first: `npm run build:proto && npm run build -w @kupa/api`) on a fresh database of the PostgreSQL named by
 * `DATABASE_URL`, with a counting TCP relay between the server and PostgreSQL (`write-inventory.ts`), makes two
 * clients, warms up with a few transfers, and then for one transfer prints as JSON
 *
 * - what `write-inventory.ts` describes: the transaction's statements, the others in the window, the bytes, the writes
 *   after the answer, per table the rows and index insertions, and the payment rows' trigram keys.
 *
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx test/bench/transfer-writes.ts` (about 40 s).
 */
import { randomUUID } from 'node:crypto';
import { createUsers, deposit } from './http.ts';
import { countWrites, sleep } from './write-inventory.ts';

const WARM_UP_TRANSFERS = 8;
/** The recipient's notice and its mail: the processors' turn after a commit is tens of milliseconds. */
const PROCESSORS_MS = 1_500;

await countWrites({
  async prepare(api, admin, baseUrl) {
    const [sender, recipient] = await createUsers(api, admin, 2, `writes-${randomUUID().slice(0, 8)}`, true);
    await deposit(api, admin, sender.userUuid, 1000, 'transfer-writes float');
    const { profileId } = await api.call<{ profileId: string }>('GET', `/users/${recipient.userUuid}`, admin);
    const transfer = async () => {
      const response = await fetch(`${baseUrl}/api/payments/transfer`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${sender.token}`,
          'Idempotency-Key': randomUUID(),
        },
        body: JSON.stringify({ recipient: profileId, amount: 0.01 }),
      });
      const answer: unknown = await response.json();
      if (response.status !== 201) throw new Error(`Transfer answered ${response.status}`);
      return answer;
    };
    for (let index = 0; index < WARM_UP_TRANSFERS; index += 1) await transfer();
    return { run: transfer, settle: () => sleep(PROCESSORS_MS) };
  },
});
