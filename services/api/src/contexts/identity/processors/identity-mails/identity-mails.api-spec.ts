import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock, ManualClock } from '../../../../platform/clock';
import { EventStore, type RecordedEvent } from '../../../../platform/event-store';
import { MailDispatcher, MailService } from '../../../../platform/mail';
import { type Processor, ProcessorRunner } from '../../../../platform/projections';
import { BackgroundWork } from '../../../../platform/workers';
import { eventually } from '../../../../test-support/eventually';
import { createActiveUser, FIXTURE_PASSWORD, uniqueEmail } from '../../../../test-support/identity-fixtures';
import { Mailbox, type ReceivedMail } from '../../../../test-support/mailbox';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { createTestDatabase } from '../../../../test-support/test-database';
import { IdentityMails } from '../../infrastructure/mail/identity-mails';
import { IdentityMailsProcessor } from './identity-mails.processor';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const signUp = (testApp: TestApp, email: string) =>
  testApp.http
    .post('/api/auth/signup')
    .send({ email, password: FIXTURE_PASSWORD, firstName: 'Dana', lastName: 'Levi', termsAccepted: true });

const mailsTo = (mailbox: Mailbox, email: string) => mailbox.messages.filter((mail) => mail.to.includes(email));

/** A second replica's worker: its own connection pool, runner and dispatcher, on the same database. */
async function replica(testApp: TestApp, processor?: Processor, batchSize?: number) {
  const dataSource = new DataSource({ type: 'postgres', url: testApp.database.url, extra: { max: 5 } });
  await dataSource.initialize();
  const clock = testApp.app.get(Clock);
  const runner = new ProcessorRunner(dataSource, testApp.app.get(EventStore), { pollIntervalMs: 20, batchSize });
  runner.register(processor ?? new IdentityMailsProcessor(clock));
  const dispatcher = new MailDispatcher(dataSource, testApp.app.get(MailService), clock, {
    pollIntervalMs: 20,
    retryBaseMs: 50,
    retryMaxMs: 400,
    messageIdDomain: 'kupa.test',
    sealingKey: testApp.config.twoFactorKey,
  });
  for (const kind of testApp.app.get(IdentityMails).kinds()) dispatcher.registerKind(kind);
  return {
    runner,
    dispatcher,
    close: async () => {
      await Promise.all([runner.stop(), dispatcher.stop()]);
      await dataSource.destroy();
    },
  };
}

describe('identity mails through the outbox', () => {
  it('sends the sign-up mail once SMTP is back, with a working link, and never twice', async () => {
    const port = await closedPort();
    const testApp = await startTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    let mailbox: Mailbox | null = null;
    try {
      const email = uniqueEmail('smtp-down');
      expect((await signUp(testApp, email)).status).toBe(201);
      // SMTP refuses: the mail waits in the outbox, failed at least twice, with the reason kept.
      const [waiting] = await eventually(
        () =>
          testApp.dataSource.query('SELECT attempts, sent_at, last_error FROM mail_outbox WHERE recipient = $1', [
            email,
          ]) as Promise<Array<{ attempts: number; sent_at: Date | null; last_error: string | null }>>,
        (rows) => rows.length === 1 && rows[0].attempts >= 2,
        'failed attempts',
      );
      expect(waiting.sent_at).toBeNull();
      expect(waiting.last_error).toMatch(/ECONNREFUSED|connect/i);
      // The first attempt made its link's token and kept the mail, sealed, before handing it to SMTP; every retry
      // sends that same mail, so at most one token is outstanding, and nobody saw it yet.
      const [{ count: tokensBefore }] = await testApp.dataSource.query(
        'SELECT count(*)::int AS count FROM identity_tokens t JOIN users u ON u.uuid = t.user_uuid WHERE u.email = $1 AND t.used_at IS NULL',
        [email],
      );
      expect(tokensBefore).toBeLessThanOrEqual(1);

      mailbox = await Mailbox.start(port);
      const mail = await mailbox.waitFor(email, () => true, 15_000);
      const token = /\/confirmation-token\/([\w-]+)/.exec(mail.text)?.[1];
      expect((await testApp.http.get('/api/confirmation-token').query({ token })).body).toEqual({ status: 'ACTIVE' });
      await sleep(600);
      expect(mailsTo(mailbox, email)).toHaveLength(1);
      const [sent] = await testApp.dataSource.query('SELECT sent_at FROM mail_outbox WHERE recipient = $1', [email]);
      expect(sent.sent_at).not.toBeNull();
    } finally {
      await testApp.close();
      await mailbox?.stop();
    }
  });

  it('sends the sign-up mail within seconds while another database holds a transaction open and a verify runs', async () => {
    const testApp = await startTestApp();
    const elsewhere = await createTestDatabase();
    const busy = new Client({ connectionString: elsewhere.url });
    const audit = new Client({ connectionString: testApp.database.url });
    await Promise.all([busy.connect(), audit.connect()]);
    try {
      // A write transaction in another database of the same server, left open as a slow job elsewhere would.
      await busy.query('BEGIN');
      await busy.query('CREATE TABLE busy (id int)');
      await busy.query('INSERT INTO busy VALUES (1)');
      // What `kupa ledger verify` holds while it runs: one REPEATABLE READ snapshot with temporary tables.
      await audit.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await audit.query('CREATE TEMPORARY TABLE verify_copy AS SELECT * FROM events');
      const email = uniqueEmail('unstalled');
      const started = Date.now();
      expect((await signUp(testApp, email)).status).toBe(201);
      await testApp.mailbox.waitFor(email, () => true, 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await busy.query('ROLLBACK').catch(() => undefined);
      await audit.query('ROLLBACK').catch(() => undefined);
      await Promise.all([busy.end(), audit.end()]);
      await elsewhere.drop();
      await testApp.close();
    }
  });

  it('two replicas running the processor and the dispatcher send each mail once', async () => {
    const testApp = await startTestApp();
    const second = await replica(testApp);
    try {
      second.runner.start();
      second.dispatcher.start();
      const emails = Array.from({ length: 8 }, (_, index) => uniqueEmail(`replicas-${index}`));
      const answers = await Promise.all(emails.map((email) => signUp(testApp, email)));
      expect(answers.map((answer) => answer.status)).toEqual(emails.map(() => 201));
      await Promise.all(emails.map((email) => testApp.mailbox.waitFor(email)));
      await sleep(500);
      for (const email of emails) expect(mailsTo(testApp.mailbox, email)).toHaveLength(1);
      const ids = testApp.mailbox.messages.map((mail) => mail.messageId);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await second.close();
      await testApp.close();
    }
  });

  it('a crash in the middle of a batch, and a dispatcher stopped half-way, lose no mail and send none twice', async () => {
    const testApp = await startTestApp({ backgroundWork: false });
    const clock = testApp.app.get(Clock);
    const inner = new IdentityMailsProcessor(clock);
    let batches = 0;
    const crashing: Processor = {
      name: inner.name,
      handles: inner.handles,
      async handle(events: readonly RecordedEvent[], manager: EntityManager) {
        batches += 1;
        await inner.handle(events, manager);
        if (batches === 3) throw new Error('worker killed mid-batch');
      },
    };
    const first = await replica(testApp, crashing, 3);
    try {
      const emails = Array.from({ length: 10 }, (_, index) => uniqueEmail(`restart-${index}`));
      for (const email of emails) expect((await signUp(testApp, email)).status).toBe(201);

      await expect(first.runner.drain()).rejects.toThrow('worker killed mid-batch');
      // Two batches committed with their checkpoint; the third rolled back, outbox rows and all.
      const [{ count: recorded }] = await testApp.dataSource.query('SELECT count(*)::int AS count FROM mail_outbox');
      expect(recorded).toBe(6);

      let sentBeforeStop = 0;
      await first.dispatcher.sendDue(() => sentBeforeStop++ >= 3);
      expect(testApp.mailbox.messages).toHaveLength(3);

      // The restarted server's own runner and dispatcher take over where the others stopped.
      testApp.app.get(BackgroundWork).start();
      await Promise.all(emails.map((email) => testApp.mailbox.waitFor(email)));
      await sleep(500);
      for (const email of emails) expect(mailsTo(testApp.mailbox, email)).toHaveLength(1);
      const [{ count: unsent }] = await testApp.dataSource.query(
        'SELECT count(*)::int AS count FROM mail_outbox WHERE sent_at IS NULL',
      );
      expect(unsent).toBe(0);
    } finally {
      await first.close();
      await testApp.close();
    }
  });

  it('sends the reset and the repeated confirmation mails in the language asked for', async () => {
    const testApp = await startTestApp();
    try {
      const email = uniqueEmail('languages');
      expect((await signUp(testApp, email)).status).toBe(201);
      await testApp.mailbox.waitFor(email);
      expect((await testApp.http.post('/api/users/resend-signup-email').send({ email, language: 'en' })).status).toBe(
        204,
      );
      const again = await testApp.mailbox.waitFor(email, (mail) => mail.subject.includes('Confirm'));
      expect(again.text).toContain('/confirmation-token/');
      expect((await testApp.http.post('/api/password/forgot').send({ email, language: 'he' })).status).toBe(204);
      const reset = await testApp.mailbox.waitFor(email, (mail) => mail.text.includes('/set-password/'));
      expect(reset.text).toMatch(/[\u0590-\u05FF]/);
      // The events that asked for the mails carry no secret: only who, when and in which language.
      const events = await testApp.dataSource.query(
        "SELECT data FROM events WHERE type IN ('UserConfirmationMailRequested', 'UserPasswordResetRequested')",
      );
      expect(events).toHaveLength(2);
      for (const { data } of events)
        expect(Object.keys(data).sort()).toEqual(['language', 'requestedAt', 'userRole', 'userUuid']);
    } finally {
      await testApp.close();
    }
  });

  describe('when SMTP took a mail but its acknowledgement was lost', () => {
    const retryAfterMs = 5 * 60_000;
    let testApp: TestApp;
    let clock: ManualClock;

    beforeAll(async () => {
      clock = new ManualClock(new Date('2026-06-01T08:00:00Z'));
      testApp = await startTestApp({
        clock,
        env: { MAIL_RETRY_BASE_MS: String(retryAfterMs), MAIL_RETRY_MAX_MS: String(3 * retryAfterMs) },
      });
    });

    afterAll(async () => {
      await testApp.close();
    });

    /**
     * Loses the acknowledgement of the mail `send` causes (the one with a link starting with `linkPrefix`), lets the
     * dispatcher send it again on its own retry schedule (the clock moves past the retry), and answers both copies.
     */
    async function deliveredTwice(
      email: string,
      linkPrefix: string,
      send: () => Promise<unknown>,
    ): Promise<[ReceivedMail, ReceivedMail]> {
      const withLink = (mail: ReceivedMail) => mail.to.includes(email) && mail.text.includes(linkPrefix);
      testApp.mailbox.loseAcknowledgements(1);
      await send();
      const first = await testApp.mailbox.waitFor(email, withLink);
      await eventually(
        () =>
          testApp.dataSource.query(
            'SELECT last_error FROM mail_outbox WHERE recipient = $1 AND sent_at IS NULL AND last_error IS NOT NULL',
            [email],
          ) as Promise<unknown[]>,
        (rows) => rows.length === 1,
        'the lost acknowledgement recorded as a failure',
      );
      await sleep(200);
      expect(testApp.mailbox.messages.filter(withLink)).toHaveLength(1);
      clock.advanceMs(retryAfterMs);
      const second = await testApp.mailbox.waitFor(email, (mail) => withLink(mail) && mail !== first);
      await eventually(
        () =>
          testApp.dataSource.query('SELECT id FROM mail_outbox WHERE recipient = $1 AND sent_at IS NULL', [
            email,
          ]) as Promise<unknown[]>,
        (rows) => rows.length === 0,
        'the retry marked sent',
      );
      expect(testApp.mailbox.messages.filter(withLink)).toHaveLength(2);
      return [first, second];
    }

    function expectSameMail(first: ReceivedMail, second: ReceivedMail, linkPrefix: string): string {
      expect(second.messageId).toBe(first.messageId);
      expect(second.subject).toBe(first.subject);
      expect(second.text).toBe(first.text);
      expect(second.html).toBe(first.html);
      const link = Mailbox.link(first, linkPrefix);
      expect(Mailbox.link(second, linkPrefix)).toBe(link);
      return link.slice(linkPrefix.length);
    }

    /** The outbox keeps what it sends again, but nothing in it reads as a link that works. */
    async function expectNoTokenInOutbox(token: string): Promise<void> {
      const rows: Array<{ row: string }> = await testApp.dataSource.query(
        'SELECT mail_outbox::text AS row FROM mail_outbox',
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const { row } of rows) expect(row).not.toContain(token);
    }

    it('sends the sign-up mail again with the same Message-ID and link, and the first copy confirms', async () => {
      const email = uniqueEmail('ack-lost-confirm');
      const prefix = 'http://kupa.test/confirmation-token/';
      const [first, second] = await deliveredTwice(email, prefix, async () =>
        expect((await signUp(testApp, email)).status).toBe(201),
      );
      const token = expectSameMail(first, second, prefix);
      await expectNoTokenInOutbox(token);
      expect((await testApp.http.get('/api/confirmation-token').query({ token })).body).toEqual({ status: 'ACTIVE' });
    });

    it('sends the password-reset mail again as the same mail, and the first copy resets', async () => {
      const user = await createActiveUser(testApp);
      const prefix = 'http://kupa.test/set-password/';
      const [first, second] = await deliveredTwice(user.email, prefix, async () =>
        expect((await testApp.http.post('/api/password/forgot').send({ email: user.email })).status).toBe(204),
      );
      const token = expectSameMail(first, second, prefix);
      await expectNoTokenInOutbox(token);
      const reset = await testApp.http
        .put('/api/password/token')
        .send({ token, password: 'New-Secret-2!', confirmPassword: 'New-Secret-2!' });
      expect(reset.status).toBe(204);
    });

    it('renders a retry anew, with a new link, once the kept link has expired', async () => {
      const user = await createActiveUser(testApp);
      const prefix = 'http://kupa.test/set-password/';
      const withLink = (mail: ReceivedMail) => mail.to.includes(user.email) && mail.text.includes(prefix);
      testApp.mailbox.loseAcknowledgements(1);
      expect((await testApp.http.post('/api/password/forgot').send({ email: user.email })).status).toBe(204);
      const first = await testApp.mailbox.waitFor(user.email, withLink);
      await eventually(
        () =>
          testApp.dataSource.query(
            'SELECT id FROM mail_outbox WHERE recipient = $1 AND sent_at IS NULL AND last_error IS NOT NULL',
            [user.email],
          ) as Promise<unknown[]>,
        (rows) => rows.length === 1,
        'the lost acknowledgement recorded as a failure',
      );
      // The reset link lives an hour: a retry later than that would only carry a dead link.
      clock.advanceMs(61 * 60_000);
      const second = await testApp.mailbox.waitFor(user.email, (mail) => withLink(mail) && mail !== first);
      expect(second.messageId).toBe(first.messageId);
      const token = Mailbox.link(second, prefix).slice(prefix.length);
      expect(token).not.toBe(Mailbox.link(first, prefix).slice(prefix.length));
      const reset = await testApp.http
        .put('/api/password/token')
        .send({ token, password: 'New-Secret-2!', confirmPassword: 'New-Secret-2!' });
      expect(reset.status).toBe(204);
    });
  });
});
