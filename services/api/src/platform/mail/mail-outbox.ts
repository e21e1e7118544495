import type { Language } from '@kupa/proto';
import type { DataSource, EntityManager } from 'typeorm';
import type { Clock } from '../clock/clock';
import { SecretBox } from '../crypto/secret-box';
import { JobQueue, type JobQueueKind, PollingLoop } from '../jobs';
import type { MailOutcome } from '../observability/metrics';
import type { MailService } from './mail.service';
import type { RenderedMail } from './templates';

/** A mail to send, as a processor records it: no secrets, only what the mail's kind needs to render it later. */
export interface OutboxMail {
  /** What makes two recordings the same mail: the causing event, so that one event never yields two mails. */
  dedupeKey: string;
  kind: string;
  recipient: string;
  language: Language;
  payload: Record<string, unknown>;
  /** Unset: `MAIL_PRIORITY.normal`. */
  priority?: MailPriority;
}

/**
 * Which mails the dispatcher takes first (`mail_outbox.priority`, lowest first): `urgent` is a mail a person waits for
 * at the screen (a confirmation or reset link, a change to the account's security), which must not queue behind a
 * burst of notices or a broadcast; `normal` is everything else.
 */
export const MAIL_PRIORITY = { urgent: 0, normal: 1 } as const;
export type MailPriority = (typeof MAIL_PRIORITY)[keyof typeof MAIL_PRIORITY];

export interface StoredMail extends OutboxMail {
  id: string;
  /** Attempts made before this one. */
  attempts: number;
}

/**
 * A kind of mail a context sends. It renders on the mail's first attempt, inside the dispatcher's transaction, so that
 * a link's one-time token is made (and stored hashed) only when the mail is about to go out; the rendering is kept,
 * sealed, and every later attempt sends it as it was, the same link included
 * (docs/adr/0066-a-re-sent-mail-is-the-same-mail.md).
 */
export interface MailKind {
  readonly name: string;
  /**
   * How long a rendering may be sent again: the lifetime of the link it carries. A retry after that renders anew,
   * since the kept link could no longer work. Unset: the rendering is kept for good.
   */
  readonly renderingLifetimeMs?: number;
  /**
   * Whether the mail is still worth sending, asked before every attempt: `false` (the account was confirmed
   * meanwhile) records it as skipped instead of sent. Unset: always.
   */
  stillWanted?(mail: StoredMail, manager: EntityManager, now: Date): Promise<boolean>;
  render(mail: StoredMail, manager: EntityManager, now: Date): Promise<RenderedMail>;
}

/** Records mails inside the caller's transaction; a second recording with the same dedupe key changes nothing. */
export async function enqueueMails(manager: EntityManager, mails: readonly OutboxMail[], now: Date): Promise<void> {
  if (mails.length === 0) return;
  await manager.query(
    `INSERT INTO mail_outbox (dedupe_key, kind, recipient, language, payload, priority, created_at, next_attempt_at)
     SELECT dedupe_key, kind, recipient, language, payload, priority, $7, $7
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::smallint[])
         AS m(dedupe_key, kind, recipient, language, payload, priority)
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [
      mails.map((mail) => mail.dedupeKey),
      mails.map((mail) => mail.kind),
      mails.map((mail) => mail.recipient),
      mails.map((mail) => mail.language),
      mails.map((mail) => JSON.stringify(mail.payload)),
      mails.map((mail) => mail.priority ?? MAIL_PRIORITY.normal),
      now,
    ],
  );
}

export interface MailDispatcherOptions {
  pollIntervalMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** The domain part of Message-IDs, so that a receiving system can recognise a mail sent twice after a crash. */
  messageIdDomain: string;
  /**
   * The root key the kept renderings are sealed under (TWO_FACTOR_KEY, under a key derived for this purpose alone):
   * their links carry one-time tokens, which the database holds only hashed otherwise.
   */
  sealingKey: string;
  onError?: (error: unknown) => void;
  /** Told how each attempt at a mail ended (the metrics count them). */
  onOutcome?: (outcome: MailOutcome) => void;
}

/**
 * How long a claimed mail belongs to the dispatcher sending it. A dispatcher that dies mid-send leaves the row due
 * again after this, so the mail goes out later rather than never; it is longer than any SMTP exchange takes.
 */
export const SEND_LEASE_MS = 5 * 60_000;

interface OutboxRow {
  id: string;
  dedupe_key: string;
  kind: string;
  recipient: string;
  language: Language;
  payload: Record<string, unknown>;
  attempts: number;
  sealed_message: string | null;
  rendered_at: Date | null;
}

/**
 * The outbox as a queue of platform/jobs: unsent rows, urgent ones first, then oldest due first (the order of
 * `mail_outbox_due_idx`, so that a claim walks the index instead of sorting the backlog), leased
 * for `SEND_LEASE_MS`, retried after the capped doubling from `retryBaseMs` to `retryMaxMs` and never given up.
 */
function outboxQueue(options: MailDispatcherOptions): JobQueueKind {
  return {
    name: 'mail-outbox',
    table: 'mail_outbox',
    idType: 'bigint',
    columns: `job.id::text AS id, job.dedupe_key, job.kind, job.recipient, job.language, job.payload, job.attempts,
              job.sealed_message, job.rendered_at`,
    pending: 'job.sent_at IS NULL',
    order: 'job.priority, job.next_attempt_at, job.id',
    leaseMs: SEND_LEASE_MS,
    backoff: { baseMs: options.retryBaseMs, maxMs: options.retryMaxMs },
    maxAttempts: null,
  };
}

/** What the key sealing kept renderings is derived for; it must not change, or kept renderings no longer open. */
const SEALED_MAIL_PURPOSE = 'outbox mails';

/**
 * Sends what the outbox holds, urgent mails first and then oldest due first, one mail at a time: the row is claimed through the outbox's job queue
 * (platform/jobs: `SKIP LOCKED`, so several dispatchers on several replicas share the work and never take one row
 * together) and leased, rendered, handed to SMTP, then marked sent. When SMTP fails the row gets its next attempt
 * time, doubling up to a cap and never given up: a mail is only ever late, not lost. A duplicate comes from a crash after SMTP accepted a mail and before it was
 * marked sent, or from an acceptance whose acknowledgement was lost; the mail then goes again, and it is the same mail:
 * the same Message-ID and the rendering of its first attempt, link and all.
 */
export class MailDispatcher {
  private readonly kinds = new Map<string, MailKind>();
  private readonly loop: PollingLoop;
  private readonly box: SecretBox;
  private readonly queue: JobQueue<OutboxRow>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly mail: MailService,
    private readonly clock: Clock,
    private readonly options: MailDispatcherOptions,
  ) {
    this.loop = new PollingLoop((stopped) => this.sendDue(stopped), options);
    this.box = new SecretBox(options.sealingKey, SEALED_MAIL_PURPOSE);
    this.queue = new JobQueue(dataSource, clock, outboxQueue(options));
  }

  registerKind(kind: MailKind): void {
    if (this.kinds.has(kind.name)) throw new Error(`Mail kind ${kind.name} is registered twice`);
    this.kinds.set(kind.name, kind);
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due work now rather than after the poll interval: work was committed in this process. */
  wake(): void {
    this.loop.wake();
  }

  /** Lets the mail being sent finish, then stops. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sends every mail due now, one after another; returns how many were sent or skipped. For the loop and tests. */
  async sendDue(stopped: () => boolean = () => false): Promise<number> {
    // One lane; a failed mail waits for its next attempt time, and within one pass it is not tried again, however
    // short the wait.
    return this.queue.runPass(1, stopped, {
      inClaim: (row, manager, now) => this.prepare(row, manager, now),
      run: (row, prepared) => this.deliver(row, prepared),
    });
  }

  /**
   * Renders a claimed row (the claim leases it: its next attempt moves past the lease), or opens its kept rendering,
   * in the claim's short transaction, which also keeps the rendering, sealed: the link's token and the mail that
   * carries it are committed before SMTP sees them, so whatever SMTP then answers, a retry sends the same mail, and no
   * other dispatcher takes the row while SMTP works. `deliver` then sends, and records the outcome.
   */
  private async prepare(
    row: OutboxRow,
    manager: EntityManager,
    now: Date,
  ): Promise<{ rendered: RenderedMail | null; failure: unknown }> {
    const stored: StoredMail = {
      id: row.id,
      dedupeKey: row.dedupe_key,
      kind: row.kind,
      recipient: row.recipient,
      language: row.language,
      payload: row.payload,
      attempts: row.attempts - 1,
    };
    await manager.query('SAVEPOINT render');
    try {
      const kind = this.kinds.get(row.kind);
      if (!kind) throw new Error(`No mail kind ${row.kind} is registered`);
      const wanted = kind.stillWanted ? await kind.stillWanted(stored, manager, now) : true;
      const rendered = wanted ? await this.rendering(kind, stored, row, manager, now) : null;
      if (rendered === null) {
        await manager.query('UPDATE mail_outbox SET sent_at = $2, skipped = true, last_error = NULL WHERE id = $1', [
          row.id,
          now,
        ]);
      }
      return { rendered, failure: null };
    } catch (error) {
      // The attempt stays counted and the row waits its backoff; what the kind wrote is undone.
      await manager.query('ROLLBACK TO SAVEPOINT render');
      await this.queue.retryLater(row.id, row.attempts, describe(error), manager);
      return { rendered: null, failure: error };
    }
  }

  /** Hands a claimed mail to SMTP and records how it went; whether it was sent or skipped. */
  private async deliver(
    row: OutboxRow,
    { rendered, failure }: { rendered: RenderedMail | null; failure: unknown },
  ): Promise<boolean> {
    if (failure !== null) {
      this.options.onError?.(failure);
      this.options.onOutcome?.('failed');
      return false;
    }
    if (rendered === null) {
      this.options.onOutcome?.('skipped');
      return true;
    }
    try {
      await this.mail.send({
        to: row.recipient,
        ...rendered,
        messageId: `<outbox-${row.id}@${this.options.messageIdDomain}>`,
      });
    } catch (error) {
      await this.queue.retryLater(row.id, row.attempts, describe(error));
      this.options.onError?.(error);
      this.options.onOutcome?.('failed');
      return false;
    }
    await this.dataSource.query('UPDATE mail_outbox SET sent_at = $2, last_error = NULL WHERE id = $1', [
      row.id,
      this.clock.now(),
    ]);
    this.options.onOutcome?.('sent');
    return true;
  }

  /**
   * The kept rendering while its link can still work, or a new one, kept sealed for the next attempts. A rendering
   * that no longer opens (the key changed) is replaced too: a new link is better than no mail.
   */
  private async rendering(
    kind: MailKind,
    mail: StoredMail,
    row: OutboxRow,
    manager: EntityManager,
    now: Date,
  ): Promise<RenderedMail> {
    const lifetimeMs = kind.renderingLifetimeMs ?? Number.POSITIVE_INFINITY;
    if (
      row.sealed_message !== null &&
      row.rendered_at !== null &&
      now.getTime() - row.rendered_at.getTime() < lifetimeMs
    ) {
      const kept = this.open(row.sealed_message, mail.id);
      if (kept) return kept;
    }
    const rendered = await kind.render(mail, manager, now);
    const sealed = this.box.seal(JSON.stringify(rendered), sealedMailAssociatedData(mail.id));
    await manager.query('UPDATE mail_outbox SET sealed_message = $2, rendered_at = $3 WHERE id = $1', [
      mail.id,
      sealed,
      now,
    ]);
    return rendered;
  }

  private open(sealed: string, id: string): RenderedMail | null {
    try {
      const { subject, text, html, unsubscribeUrl } = JSON.parse(
        this.box.open(sealed, sealedMailAssociatedData(id)),
      ) as RenderedMail;
      return { subject, text, html, ...(unsubscribeUrl ? { unsubscribeUrl } : {}) };
    } catch {
      return null;
    }
  }
}

/** Binds a sealed rendering to its row: copied onto another row (another recipient), it does not open. */
function sealedMailAssociatedData(id: string): string {
  return `mail_outbox:${id}`;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 500);
}

/** The outbox at one moment: mails not sent yet (due or waiting for a retry) and the age of the oldest. */
export interface OutboxReading {
  unsent: number;
  /** 0 when every mail went out. */
  oldestUnsentSeconds: number;
}

/** Reads the outbox through its index of unsent mails; `now` is the application's clock, which wrote `created_at`. */
export async function readOutbox(dataSource: DataSource, now: Date): Promise<OutboxReading> {
  const rows: { unsent: number; oldest: Date | null }[] = await dataSource.query(
    'SELECT count(*)::int AS unsent, min(created_at) AS oldest FROM mail_outbox WHERE sent_at IS NULL',
  );
  const oldest = rows[0]?.oldest ?? null;
  return {
    unsent: rows[0]?.unsent ?? 0,
    oldestUnsentSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000),
  };
}
