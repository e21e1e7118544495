import { DataSource } from 'typeorm';
import { Mailbox } from '../../test-support/mailbox';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { ManualClock } from '../clock';
import { platformMigrations } from '../database/migrations';
import { enqueueMails, MAIL_PRIORITY, MailDispatcher, type MailKind, type OutboxMail } from './mail-outbox';
import { MailService } from './mail.service';

/** A kind that renders its recipient into the subject, so that the mailbox tells which mail went. */
const plainKind = (name: string): MailKind => ({
  name,
  render: async (mail) => ({ subject: `${name} for ${mail.recipient}`, text: 'Hello', html: '<p>Hello</p>' }),
});

const notice = (index: number): OutboxMail => ({
  dedupeKey: `notice:${index}`,
  kind: 'notice',
  recipient: `notice-${index}@example.com`,
  language: 'en',
  payload: {},
});

describe('The mail outbox on PostgreSQL: urgent mails first', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let mailbox: Mailbox;
  let mail: MailService;
  const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource({ type: 'postgres', url: database.url, migrations: platformMigrations });
    await dataSource.initialize();
    await dataSource.runMigrations();
    mailbox = await Mailbox.start();
    mail = new MailService({ smtpUrl: mailbox.url, from: 'Kupa <no-reply@kupa.test>' });
  });

  afterAll(async () => {
    mail.onModuleDestroy();
    await mailbox.stop();
    await dataSource.destroy();
    await database.drop();
  });

  it('sends a confirmation enqueued behind 200 notices before any of them', async () => {
    await dataSource.transaction((manager) =>
      enqueueMails(
        manager,
        Array.from({ length: 200 }, (_, index) => notice(index)),
        clock.now(),
      ),
    );
    clock.advanceMs(60_000);
    await dataSource.transaction((manager) =>
      enqueueMails(
        manager,
        [
          {
            dedupeKey: 'confirmation:1',
            kind: 'confirmation',
            recipient: 'dana@example.com',
            language: 'he',
            payload: {},
            priority: MAIL_PRIORITY.urgent,
          },
        ],
        clock.now(),
      ),
    );
    let outcomes = 0;
    const dispatcher = new MailDispatcher(dataSource, mail, clock, {
      pollIntervalMs: 20,
      retryBaseMs: 50,
      retryMaxMs: 400,
      messageIdDomain: 'kupa.test',
      sealingKey: 'a'.repeat(64),
      onOutcome: () => (outcomes += 1),
    });
    dispatcher.registerKind(plainKind('notice'));
    dispatcher.registerKind(plainKind('confirmation'));

    // One mail, and only one: the pass stops after the first outcome.
    expect(await dispatcher.sendDue(() => outcomes >= 1)).toBe(1);
    const received = await mailbox.waitFor('dana@example.com');
    expect(received.subject).toBe('confirmation for dana@example.com');
    const sent: { recipient: string }[] = await dataSource.query(
      'SELECT recipient FROM mail_outbox WHERE sent_at IS NOT NULL',
    );
    expect(sent).toEqual([{ recipient: 'dana@example.com' }]);

    // Then the notices, oldest first.
    expect(await dispatcher.sendDue(() => outcomes >= 3)).toBe(2);
    const next: { recipient: string }[] = await dataSource.query(
      `SELECT recipient FROM mail_outbox WHERE sent_at IS NOT NULL AND priority = ${MAIL_PRIORITY.normal} ORDER BY id`,
    );
    expect(next.map((row) => row.recipient)).toEqual(['notice-0@example.com', 'notice-1@example.com']);
  });

  it('claims through the due index in its order, with no sort of the backlog', async () => {
    await dataSource.transaction((manager) =>
      enqueueMails(
        manager,
        Array.from({ length: 5000 }, (_, index) => notice(1000 + index)),
        clock.now(),
      ),
    );
    await dataSource.query('ANALYZE mail_outbox');
    // The dispatcher's claim as platform/jobs builds it from the queue's `pending` and `order`.
    const plan: { 'QUERY PLAN': string }[] = await dataSource.query(
      `EXPLAIN SELECT job.id FROM mail_outbox job
        WHERE job.sent_at IS NULL AND job.next_attempt_at <= $1 AND NOT (job.id = ANY($2::bigint[]))
        ORDER BY job.priority, job.next_attempt_at, job.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [clock.now(), []],
    );
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('Index Scan using mail_outbox_due_idx');
    expect(text).not.toContain('Sort');
  });
});
