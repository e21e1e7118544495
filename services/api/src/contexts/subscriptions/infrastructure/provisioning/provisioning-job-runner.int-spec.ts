import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../../../platform/clock';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { HttpProvisioningProvider } from './http-provisioning-provider';
import { FixedProvisioningEndpoint, SANDBOX_STREAMING_PATH } from './provisioning-endpoint';
import { ProvisioningJobRunner, type ProvisioningJobRunnerOptions } from './provisioning-job-runner';
import {
  enqueueProvisioning,
  type PasswordJob,
  type ProvisioningJob,
  type ProvisioningRequest,
} from './provisioning-jobs';
import { type ProvisioningFailure, ProvisioningOutcomes } from './provisioning-outcomes.port';
import { ProvisioningProvider } from './provisioning-provider.port';
import { ProvisioningSecrets } from './provisioning-secrets.port';
import type { EntityManager } from 'typeorm';
import { SubscriptionSecrets } from '../subscription-secrets';

const TOKEN = 'test-provisioning-token';
/** Calls get time to spare on a loaded machine; the timeout case runs through a client of its own. */
const CALL_TIMEOUT_MS = 5000;
const TIMEOUT_MS = 300;
const OPTIONS: Omit<ProvisioningJobRunnerOptions, 'onError'> = {
  pollIntervalMs: 20,
  maxAttempts: 3,
  retryBaseMs: 1000,
  retryMaxMs: 1500,
  leaseMs: 60_000,
};

/** The lead binds these to subscription commands; here they record what the runner reports. */
class RecordedOutcomes extends ProvisioningOutcomes {
  readonly succeededJobs: ProvisioningJob[] = [];
  readonly failedJobs: Array<{ job: ProvisioningJob; failure: ProvisioningFailure }> = [];
  failNextReports = 0;

  succeeded(job: ProvisioningJob): Promise<void> {
    if (this.failNextReports > 0) {
      this.failNextReports -= 1;
      return Promise.reject(new Error('the subscriptions side is down'));
    }
    this.succeededJobs.push(job);
    return Promise.resolve();
  }

  failedPermanently(job: ProvisioningJob, failure: ProvisioningFailure): Promise<void> {
    this.failedJobs.push({ job, failure });
    return Promise.resolve();
  }
}

class RecordedSecrets extends ProvisioningSecrets {
  readonly passwords = new Map<string, string>();
  readonly asked: string[] = [];
  readonly forgotten: Array<[string, ProvisioningJob['operation'], string]> = [];

  passwordFor(job: ProvisioningJob): Promise<string | null> {
    this.asked.push(job.id);
    return Promise.resolve(this.passwords.get(job.subscriptionId) ?? null);
  }

  forget(job: PasswordJob, result: 'SUCCEEDED' | 'FAILED'): Promise<void> {
    this.forgotten.push([job.subscriptionId, job.operation, result]);
    return Promise.resolve();
  }
}

/**
 * The passwords in the subscriptions' own table, forgotten as the context's binding forgets them (the application
 * layer's `SubscriptionProvisioningSecrets`, which this layer may not import): up to the job's version on success.
 */
class TableSecrets extends ProvisioningSecrets {
  constructor(private readonly stored: SubscriptionSecrets) {
    super();
  }

  async passwordFor(job: ProvisioningJob): Promise<string | null> {
    return (await this.stored.newest(job.subscriptionId))?.password ?? null;
  }

  async forget(job: PasswordJob, result: 'SUCCEEDED' | 'FAILED', manager: EntityManager): Promise<void> {
    if (result === 'SUCCEEDED') await this.stored.forgetUpTo(job.subscriptionId, job.parameters.secretVersion, manager);
  }
}

/** Counts the calls that reach the streaming service: a forwarding proxy at the network edge. */
async function countingProxy(target: string): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      calls.push(`${request.method} ${request.url}`);
      fetch(`${target}${request.url}`, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      })
        .then(async (answer) => {
          response.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/plain' });
          response.end(await answer.text());
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * How long a call waits at the gate for the others. Long enough for the other lanes to claim their jobs on a runner
 * whose cores a second Jest worker shares (a second was not, in CI's suite); short enough that a runner with one lane
 * (eight gates waited out) still fails within the test's time rather than passing.
 */
const GATE_WAIT_MS = 5000;

/**
 * Holds each account creation until `gateSize` calls wait at the gate (or `GATE_WAIT_MS` has passed), then lets them
 * through to the real provider: how a spec sees how many calls a runner makes at once. The gate counts the calls
 * waiting, not those in flight: a call already through may still be at the service when a lane brings its next job,
 * and counting it let that job pass alone, which left the last calls of the pass short of a full gate. The creation of `brokenLogin`
 * throws an error that is not a provisioning failure once through the gate, as a bug in an adapter would.
 */
class GatedProvider extends ProvisioningProvider {
  inFlight = 0;
  mostInFlight = 0;
  gatesTimedOut = 0;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly through: ProvisioningProvider,
    private readonly gateSize: number,
    private readonly brokenLogin: string | null = null,
  ) {
    super();
  }

  async createAccount(request: { login: string; password: string; expiresAt: Date }) {
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      await this.gate();
      if (request.login === this.brokenLogin) throw new Error('a bug in the adapter');
      return await this.through.createAccount(request);
    } finally {
      this.inFlight -= 1;
    }
  }

  extendAccount(request: { login: string; expiresAt: Date }) {
    return this.through.extendAccount(request);
  }

  changeLogin(request: { login: string; newLogin: string }) {
    return this.through.changeLogin(request);
  }

  changePassword(request: { login: string; password: string }) {
    return this.through.changePassword(request);
  }

  disableAccount(request: { login: string }) {
    return this.through.disableAccount(request);
  }

  isLoginAvailable(login: string) {
    return this.through.isLoginAvailable(login);
  }

  private gate(): Promise<void> {
    if (this.waiting.length + 1 >= this.gateSize) {
      for (const release of this.waiting.splice(0)) release();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.gatesTimedOut += 1;
        this.waiting = this.waiting.filter((release) => release !== open);
        resolve();
      }, GATE_WAIT_MS);
      const open = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(open);
    });
  }
}

describe('ProvisioningJobRunner', () => {
  const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
  let testApp: TestApp;
  let appProvider: ProvisioningProvider;
  let impatient: ProvisioningProvider;
  let proxy: Awaited<ReturnType<typeof countingProxy>>;
  let provider: HttpProvisioningProvider;
  let outcomes: RecordedOutcomes;
  let secrets: RecordedSecrets;
  let causation = 1000;
  let loginCounter = 0;

  const runner = (options: Partial<ProvisioningJobRunnerOptions> = {}, through: ProvisioningProvider = provider) =>
    new ProvisioningJobRunner(testApp.dataSource, through, secrets, outcomes, clock, { ...OPTIONS, ...options });

  const newLogin = () => `runner.${++loginCounter}.${Date.now() % 100000}`;

  async function enqueue(work: Omit<ProvisioningRequest, 'causationEventId'>, causationEventId = String(++causation)) {
    return enqueueProvisioning(
      testApp.dataSource.manager,
      { ...work, causationEventId } as ProvisioningRequest,
      clock.now(),
    );
  }

  async function createJob(password: string | null = 'pw-secret-1') {
    const subscriptionId = randomUUID();
    const login = newLogin();
    if (password !== null) secrets.passwords.set(subscriptionId, password);
    await enqueue({
      subscriptionId,
      operation: 'CREATE_ACCOUNT',
      parameters: { login, expiresAt: '2026-04-01T10:00:00.000Z', secretVersion: 1 },
    });
    return { subscriptionId, login };
  }

  async function jobOf(subscriptionId: string) {
    const rows: Array<{ status: string; attempts: number; next_attempt_at: Date; last_error: string | null }> =
      await testApp.dataSource.query(
        'SELECT status, attempts, next_attempt_at, last_error, parameters FROM provisioning_jobs WHERE subscription_id = $1 ORDER BY seq',
        [subscriptionId],
      );
    return rows;
  }

  const queueFault = (operation: string, mode: string, times = 1) =>
    testApp.http
      .put('/api/sandbox/streaming/faults')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ operation, mode, times })
      .expect(200);

  beforeAll(async () => {
    testApp = await startTestApp({
      clock,
      backgroundWork: false,
      env: { PROVISIONING_SIMULATOR_FAULTS: '1', PROVISIONING_TIMEOUT_MS: String(CALL_TIMEOUT_MS) },
    });
    const { port } = testApp.app.getHttpServer().address() as AddressInfo;
    proxy = await countingProxy(`http://127.0.0.1:${port}`);
    provider = new HttpProvisioningProvider(
      new FixedProvisioningEndpoint(`${proxy.url}${SANDBOX_STREAMING_PATH}`, TOKEN),
      { timeoutMs: CALL_TIMEOUT_MS },
    );
    impatient = new HttpProvisioningProvider(
      new FixedProvisioningEndpoint(`${proxy.url}${SANDBOX_STREAMING_PATH}`, TOKEN),
      { timeoutMs: TIMEOUT_MS },
    );
    appProvider = testApp.app.get(ProvisioningProvider, { strict: false });
  });

  beforeEach(() => {
    outcomes = new RecordedOutcomes();
    secrets = new RecordedSecrets();
    proxy.calls.length = 0;
  });

  afterEach(async () => {
    await testApp.http.delete('/api/sandbox/streaming/faults').set('Authorization', `Bearer ${TOKEN}`).expect(204);
  });

  afterAll(async () => {
    await proxy?.close();
    await testApp?.close();
  });

  it('creates the account, reports success once, and keeps one job per causing event', async () => {
    const { subscriptionId, login } = await createJob();
    expect(
      await enqueue(
        {
          subscriptionId,
          operation: 'CREATE_ACCOUNT',
          parameters: { login, expiresAt: '2026-04-01T10:00:00.000Z', secretVersion: 1 },
        },
        String(causation),
      ),
    ).toBe(false);
    expect(await runner().runDue()).toBe(1);
    expect(outcomes.succeededJobs.map((job) => [job.subscriptionId, job.operation, job.attempts])).toEqual([
      [subscriptionId, 'CREATE_ACCOUNT', 1],
    ]);
    expect(await jobOf(subscriptionId)).toMatchObject([{ status: 'DONE', attempts: 1 }]);
    expect(await appProvider.isLoginAvailable(login)).toBe(false);
    // The password came from the port and went nowhere else.
    const stored = await testApp.dataSource.query(
      'SELECT parameters::text AS p FROM provisioning_jobs WHERE subscription_id = $1',
      [subscriptionId],
    );
    expect(stored[0].p).not.toContain('pw-secret-1');
    expect(await runner().runDue()).toBe(0);
    expect(outcomes.succeededJobs).toHaveLength(1);
  });

  it('retries a transient failure after a doubling, capped wait, then succeeds', async () => {
    const { subscriptionId } = await createJob();
    await queueFault('create', 'transient', 2);
    const started = clock.now().getTime();
    expect(await runner().runDue()).toBe(0);
    let [job] = await jobOf(subscriptionId);
    expect([job.status, job.attempts, new Date(job.next_attempt_at).getTime() - started]).toEqual(['PENDING', 1, 1000]);
    expect(job.last_error).toMatch(/create: the service answered 503/);

    clock.advanceMs(999);
    expect(await runner().runDue()).toBe(0);
    expect(await jobOf(subscriptionId)).toMatchObject([{ attempts: 1 }]);

    clock.advanceMs(1);
    expect(await runner().runDue()).toBe(0);
    [job] = await jobOf(subscriptionId);
    // 2000 would be the doubled wait; the cap is 1500.
    expect([job.attempts, new Date(job.next_attempt_at).getTime() - clock.now().getTime()]).toEqual([2, 1500]);

    clock.advanceMs(1500);
    expect(await runner().runDue()).toBe(1);
    expect(outcomes.succeededJobs.map((done) => done.attempts)).toEqual([3]);
    expect(outcomes.failedJobs).toEqual([]);
    expect(proxy.calls.filter((call) => call.startsWith('POST'))).toHaveLength(3);
  });

  it('reports a permanent refusal once, without retrying', async () => {
    const { subscriptionId } = await createJob();
    await queueFault('create', 'permanent');
    expect(await runner().runDue()).toBe(1);
    clock.advanceMs(60_000);
    expect(await runner().runDue()).toBe(0);
    expect(outcomes.failedJobs.map(({ job, failure }) => [job.subscriptionId, failure.kind, failure.code])).toEqual([
      [subscriptionId, 'REJECTED', 'error.streaming.integration.failure'],
    ]);
    expect(outcomes.failedJobs[0].failure.detail).toMatch(/answered 400/);
    expect(outcomes.succeededJobs).toEqual([]);
    expect(await jobOf(subscriptionId)).toMatchObject([{ status: 'FAILED', attempts: 1 }]);
    expect(proxy.calls).toHaveLength(1);
  });

  it('gives up after the configured attempts and reports the exhausted retries once', async () => {
    const { subscriptionId } = await createJob();
    await queueFault('create', 'transient', 10);
    for (let pass = 0; pass < 5; pass++) {
      await runner().runDue();
      clock.advanceMs(1500);
    }
    expect(outcomes.failedJobs.map(({ failure }) => [failure.kind, failure.code])).toEqual([
      ['RETRIES_EXHAUSTED', 'error.streaming.integration.failure'],
    ]);
    expect(outcomes.failedJobs[0].failure.detail).toMatch(/^3 attempts failed/);
    expect(await jobOf(subscriptionId)).toMatchObject([{ status: 'FAILED', attempts: 3 }]);
    expect(proxy.calls).toHaveLength(3);
  });

  it('reports a login taken at the service as error.login.already.exists', async () => {
    const { subscriptionId, login } = await createJob();
    await appProvider.createAccount({ login, password: 'someone-else', expiresAt: new Date('2026-05-01T00:00:00Z') });
    expect(await runner().runDue()).toBe(1);
    expect(outcomes.failedJobs.map(({ job, failure }) => [job.subscriptionId, failure.kind, failure.code])).toEqual([
      [subscriptionId, 'LOGIN_TAKEN', 'error.login.already.exists'],
    ]);
    const { subscriptionId: other } = await createJob();
    await queueFault('create', 'login_taken');
    await runner().runDue();
    expect(outcomes.failedJobs.map(({ job, failure }) => [job.subscriptionId, failure.kind])).toEqual([
      [subscriptionId, 'LOGIN_TAKEN'],
      [other, 'LOGIN_TAKEN'],
    ]);
  });

  it('treats a call without an answer in time as transient, and succeeds on the retry', async () => {
    const { subscriptionId } = await createJob();
    await queueFault('create', 'timeout');
    expect(await runner({}, impatient).runDue()).toBe(0);
    expect(await jobOf(subscriptionId)).toMatchObject([
      { status: 'PENDING', attempts: 1, last_error: `Provisioning create: no answer within ${TIMEOUT_MS} ms` },
    ]);
    clock.advanceMs(1000);
    expect(await runner().runDue()).toBe(1);
    expect(outcomes.succeededJobs.map((job) => job.subscriptionId)).toEqual([subscriptionId]);
  });

  it('fails a job whose password is gone, without calling the service', async () => {
    const { subscriptionId } = await createJob(null);
    expect(await runner().runDue()).toBe(1);
    expect(outcomes.failedJobs.map(({ job, failure }) => [job.subscriptionId, failure.kind])).toEqual([
      [subscriptionId, 'SECRET_MISSING'],
    ]);
    expect(proxy.calls).toEqual([]);
  });

  it.each([1, 4])(
    "runs a subscription's jobs in the order they were asked for, one at a time (%i lanes)",
    async (lanes) => {
      const { subscriptionId, login } = await createJob();
      const renamed = `${login}.b`;
      await enqueue({ subscriptionId, operation: 'CHANGE_LOGIN', parameters: { login, newLogin: renamed } });
      await enqueue({ subscriptionId, operation: 'CHANGE_PASSWORD', parameters: { login: renamed, secretVersion: 2 } });
      await enqueue({
        subscriptionId,
        operation: 'EXTEND_ACCOUNT',
        parameters: { login: renamed, expiresAt: '2026-06-01T10:00:00.000Z' },
      });
      await enqueue({ subscriptionId, operation: 'DISABLE_ACCOUNT', parameters: { login: renamed, secretVersion: 2 } });
      await queueFault('create', 'transient');
      // The creation waits for its retry, and the rename behind it waits too instead of finding no account.
      expect(await runner({ concurrency: lanes }).runDue()).toBe(0);
      expect(proxy.calls).toHaveLength(1);
      clock.advanceMs(1000);
      expect(await runner({ concurrency: lanes }).runDue()).toBe(5);
      expect(outcomes.succeededJobs.map((job) => job.operation)).toEqual([
        'CREATE_ACCOUNT',
        'CHANGE_LOGIN',
        'CHANGE_PASSWORD',
        'EXTEND_ACCOUNT',
        'DISABLE_ACCOUNT',
      ]);
      expect(proxy.calls.map((call) => call.replace(renamed, '{new}').replace(login, '{old}'))).toEqual([
        `POST ${SANDBOX_STREAMING_PATH}/v1/accounts`,
        `POST ${SANDBOX_STREAMING_PATH}/v1/accounts`,
        `PUT ${SANDBOX_STREAMING_PATH}/v1/accounts/{old}/login`,
        `PUT ${SANDBOX_STREAMING_PATH}/v1/accounts/{new}/password`,
        `PUT ${SANDBOX_STREAMING_PATH}/v1/accounts/{new}/expiry`,
        `POST ${SANDBOX_STREAMING_PATH}/v1/accounts/{new}/disable`,
      ]);
      expect(secrets.asked).toHaveLength(3);
    },
  );

  it('reports again, without calling the service again, when reporting the outcome failed', async () => {
    const { subscriptionId } = await createJob();
    outcomes.failNextReports = 1;
    const errors: unknown[] = [];
    expect(await runner({ onError: (error) => errors.push(error) }).runDue()).toBe(0);
    expect(errors).toHaveLength(1);
    expect(await jobOf(subscriptionId)).toMatchObject([{ status: 'PENDING', attempts: 1 }]);
    clock.advanceMs(1000);
    expect(await runner().runDue()).toBe(1);
    expect(outcomes.succeededJobs.map((job) => job.subscriptionId)).toEqual([subscriptionId]);
    expect(proxy.calls).toHaveLength(1);
  });

  /** A job that sends no password: setting the expiry of an account the service already holds. */
  async function extendJob() {
    const subscriptionId = randomUUID();
    const login = newLogin();
    await appProvider.createAccount({ login, password: 'pw-extend', expiresAt: new Date('2026-04-01T10:00:00Z') });
    await enqueue({
      subscriptionId,
      operation: 'EXTEND_ACCOUNT',
      parameters: { login, expiresAt: '2026-05-01T10:00:00.000Z' },
    });
    return { subscriptionId, login };
  }

  /** Every version of the jobs' rows written while `during` runs, in order (ADR 0135: what a job writes). */
  async function jobWrites(during: () => Promise<unknown>) {
    const db = testApp.dataSource;
    await db.query(`CREATE TABLE job_writes (seq bigserial, subscription_id uuid, status text, outcome jsonb)`);
    await db.query(`
      CREATE FUNCTION record_job_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO job_writes (subscription_id, status, outcome) VALUES (NEW.subscription_id, NEW.status, NEW.outcome);
      RETURN NEW; END $$`);
    await db.query(
      `CREATE TRIGGER job_writes AFTER UPDATE ON provisioning_jobs FOR EACH ROW EXECUTE FUNCTION record_job_write()`,
    );
    try {
      await during();
      const rows: Array<{ subscription_id: string; status: string; outcome: { result: string } | null }> =
        await db.query('SELECT subscription_id, status, outcome FROM job_writes ORDER BY seq');
      return rows.map((row) => [row.subscription_id, row.status, row.outcome?.result ?? null]);
    } finally {
      await db.query('DROP TRIGGER job_writes ON provisioning_jobs');
      await db.query('DROP FUNCTION record_job_write()');
      await db.query('DROP TABLE job_writes');
    }
  }

  it('writes the outcome with DONE after the report, and before it only for a password job that failed', async () => {
    const extended = await extendJob();
    const created = await createJob();
    const refused = await createJob();
    await appProvider.createAccount({
      login: refused.login,
      password: 'someone-else',
      expiresAt: new Date('2026-05-01T00:00:00Z'),
    });
    const writes = await jobWrites(() => runner().runDue());
    expect(outcomes.succeededJobs.map((job) => job.operation).sort()).toEqual(['CREATE_ACCOUNT', 'EXTEND_ACCOUNT']);
    // The lease, then one update with the outcome and DONE (a password job's password forgotten in its transaction).
    for (const { subscriptionId } of [extended, created])
      expect(writes.filter(([id]) => id === subscriptionId)).toEqual([
        [subscriptionId, 'PENDING', null],
        [subscriptionId, 'DONE', 'SUCCEEDED'],
      ]);
    // A password job's failure: its outcome before the report (called again, the service might create the account of
    // a refunded subscription), then FAILED.
    expect(writes.filter(([id]) => id === refused.subscriptionId)).toEqual([
      [refused.subscriptionId, 'PENDING', null],
      [refused.subscriptionId, 'PENDING', 'FAILED'],
      [refused.subscriptionId, 'FAILED', 'FAILED'],
    ]);
    expect(secrets.forgotten.filter(([id]) => id !== extended.subscriptionId).sort()).toEqual(
      [
        [created.subscriptionId, 'CREATE_ACCOUNT', 'SUCCEEDED'],
        [refused.subscriptionId, 'CREATE_ACCOUNT', 'FAILED'],
      ].sort(),
    );
  });

  it.each(['CREATE_ACCOUNT', 'CHANGE_PASSWORD'] as const)(
    'keeps the password a %s sent until its DONE mark commits: a run repeated after a crash there sends it again',
    async (operation) => {
      const stored = testApp.app.get(SubscriptionSecrets, { strict: false });
      const realSecrets = new TableSecrets(stored);
      const subscriptionId = randomUUID();
      const login = newLogin();
      const password = 'pw-kept-until-done';
      await stored.write(testApp.dataSource.manager, { subscriptionId, version: 1, password, at: clock.now() });
      if (operation === 'CHANGE_PASSWORD')
        await appProvider.createAccount({ login, password: 'pw-before', expiresAt: new Date('2026-04-01T10:00:00Z') });
      await enqueue({
        subscriptionId,
        operation,
        parameters:
          operation === 'CREATE_ACCOUNT'
            ? { login, expiresAt: '2026-04-01T10:00:00.000Z', secretVersion: 1 }
            : { login, secretVersion: 1 },
      } as Omit<ProvisioningRequest, 'causationEventId'>);
      const withRealSecrets = () =>
        new ProvisioningJobRunner(testApp.dataSource, provider, realSecrets, outcomes, clock, OPTIONS);
      // The process dies after the report, before the DONE mark commits: the mark fails as the crash would leave it.
      await testApp.dataSource.query(`
        CREATE FUNCTION lose_done_mark() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.subscription_id = '${subscriptionId}' AND NEW.status = 'DONE' THEN
          RAISE EXCEPTION 'the process died before the DONE mark'; END IF;
        RETURN NEW; END $$`);
      await testApp.dataSource.query(
        `CREATE TRIGGER lose_done_mark BEFORE UPDATE ON provisioning_jobs FOR EACH ROW EXECUTE FUNCTION lose_done_mark()`,
      );
      try {
        await expect(withRealSecrets().runDue()).rejects.toThrow(/died before the DONE mark/);
      } finally {
        await testApp.dataSource.query('DROP TRIGGER lose_done_mark ON provisioning_jobs');
        await testApp.dataSource.query('DROP FUNCTION lose_done_mark()');
      }
      expect(outcomes.succeededJobs.map((job) => job.subscriptionId)).toEqual([subscriptionId]);
      expect(await stored.newest(subscriptionId)).toEqual({ version: 1, password });
      expect(await jobOf(subscriptionId)).toMatchObject([{ status: 'PENDING', attempts: 1 }]);

      clock.advanceMs(OPTIONS.leaseMs);
      expect(await withRealSecrets().runDue()).toBe(1);
      // Called again with the same password (the service's API makes the repeat harmless), reported again, DONE.
      expect(outcomes.succeededJobs.map((job) => job.subscriptionId)).toEqual([subscriptionId, subscriptionId]);
      expect(outcomes.failedJobs).toEqual([]);
      expect(proxy.calls).toHaveLength(2);
      expect(await jobOf(subscriptionId)).toMatchObject([{ status: 'DONE', attempts: 2, last_error: null }]);
      expect(await stored.newest(subscriptionId)).toBeNull();
    },
  );

  it('keeps the outcome of a job whose report failed, so that the retry reports without calling again', async () => {
    const { subscriptionId } = await extendJob();
    outcomes.failNextReports = 1;
    expect(await runner({ onError: () => undefined }).runDue()).toBe(0);
    const [pending] = await testApp.dataSource.query(
      'SELECT status, outcome, last_error FROM provisioning_jobs WHERE subscription_id = $1',
      [subscriptionId],
    );
    expect(pending).toMatchObject({ status: 'PENDING', outcome: { result: 'SUCCEEDED' } });
    expect(pending.last_error).toMatch(/^Reporting the outcome failed/);
    clock.advanceMs(1000);
    expect(await runner().runDue()).toBe(1);
    expect(outcomes.succeededJobs.map((job) => [job.subscriptionId, job.operation])).toEqual([
      [subscriptionId, 'EXTEND_ACCOUNT'],
    ]);
    expect(proxy.calls.filter((call) => call.endsWith('/expiry'))).toHaveLength(1);
    expect(await jobOf(subscriptionId)).toMatchObject([{ status: 'DONE' }]);
  });

  it('never runs one job twice when two runners share the queue', async () => {
    const subscriptions: string[] = [];
    for (let index = 0; index < 16; index++) subscriptions.push((await createJob()).subscriptionId);
    const [first, second] = await Promise.all([runner().runDue(), runner().runDue()]);
    expect(first + second).toBe(16);
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    expect(outcomes.succeededJobs.map((job) => job.subscriptionId).sort()).toEqual([...subscriptions].sort());
    expect(proxy.calls).toHaveLength(16);
  });

  it('has as many calls at the service at once as it has lanes, and runs each job once', async () => {
    const lanes = 4;
    const gated = new GatedProvider(provider, lanes);
    const subscriptions: string[] = [];
    // Two rounds of four: a lane held at the gate takes no other job, so each round fills the gate exactly.
    for (let index = 0; index < 2 * lanes; index++) subscriptions.push((await createJob()).subscriptionId);
    expect(await runner({ concurrency: lanes }, gated).runDue()).toBe(2 * lanes);
    // The gate holds each call until four are in flight: one lane alone would have waited out every gate instead.
    expect(gated.mostInFlight).toBe(lanes);
    expect(gated.gatesTimedOut).toBe(0);
    expect(outcomes.succeededJobs.map((job) => job.subscriptionId).sort()).toEqual([...subscriptions].sort());
    expect(proxy.calls).toHaveLength(2 * lanes);
  });

  it('ends a pass whose lane threw only after the other lanes finished the job in hand, and takes no other', async () => {
    const broken = await createJob();
    const beside = await createJob();
    const left = [await createJob(), await createJob()];
    const gated = new GatedProvider(provider, 2, broken.login);
    await expect(runner({ concurrency: 2 }, gated).runDue()).rejects.toThrow('a bug in the adapter');
    // By the time the pass rejects, the call beside the broken one has come back and its outcome is reported.
    expect(gated.inFlight).toBe(0);
    expect(outcomes.succeededJobs.map((job) => job.subscriptionId)).toEqual([beside.subscriptionId]);
    expect(await jobOf(beside.subscriptionId)).toMatchObject([{ status: 'DONE', attempts: 1 }]);
    // The broken job keeps its lease and waits; no lane took another job after the error.
    expect(await jobOf(broken.subscriptionId)).toMatchObject([{ status: 'PENDING', attempts: 1 }]);
    for (const job of left) expect(await jobOf(job.subscriptionId)).toMatchObject([{ status: 'PENDING', attempts: 0 }]);
    expect(proxy.calls).toHaveLength(1);
  });

  it('refuses a lane count that is not a whole number of at least one', async () => {
    await expect(runner({ concurrency: 0 }).runDue()).rejects.toThrow(/at least 1, got 0/);
    await expect(runner({ concurrency: 1.5 }).runDue()).rejects.toThrow(/at least 1, got 1.5/);
  });

  it('runs as a background loop until stopped', async () => {
    const { subscriptionId } = await createJob();
    const loop = runner();
    loop.start();
    const deadline = Date.now() + 5000;
    while (outcomes.succeededJobs.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await loop.stop();
    expect(outcomes.succeededJobs.map((job) => job.subscriptionId)).toEqual([subscriptionId]);
  });
});
