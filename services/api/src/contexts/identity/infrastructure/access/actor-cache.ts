import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import type { ActorRecord } from '../../../../platform/auth';

/** The channel the identity tables' triggers notify on (`ActorChangeNotifications` migration). */
export const ACTOR_CHANGED_CHANNEL = 'kupa_actor_changed';

/** Limits of the cache: a view is kept at most this long, and at most this many views at once. */
export const ACTOR_CACHE_LIMITS = Object.freeze({ entryTtlMs: 30_000, entriesMax: 10_000, reconnectDelayMs: 1_000 });

interface Entry {
  record: ActorRecord;
  cachedAtMs: number;
}

/**
 * The guard's view of signed-in users, kept in memory so that a request does not read it again
 * (docs/adr/0046-actor-cache.md). It is trusted only while this process listens on `kupa_actor_changed`: the
 * identity tables' triggers notify there when a user's status, role, e-mail, name or session version changes, and
 * a notification drops that user's view. When the listening connection is lost, the cache empties and every lookup
 * reads the database until it listens again. The writers in this process also drop a view once their transaction
 * commits (`forgetOnCommit`), so that a block answered by this process bites on the user's very next request to it.
 *
 * A read that raced a change must not store what it read: every change moves `generation` on, and a view read
 * before the move is not stored.
 */
@Injectable()
export class ActorCache implements OnApplicationShutdown {
  private readonly logger = new Logger('ActorCache');
  private readonly entries = new Map<string, Entry>();
  private listener: Client | null = null;
  private listening = false;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private generationValue = 0;
  private started = false;
  /** Views to drop when the transaction on a connection commits, by that connection (`forgetOnCommit`). */
  private readonly dropsOnCommit = new WeakMap<QueryRunner, Set<string>>();

  constructor(private readonly dataSource: DataSource) {
    // TypeORM tells its subscribers of every commit and rollback, with the connection that made it.
    dataSource.subscribers.push({
      afterTransactionCommit: ({ queryRunner }) => this.settle(queryRunner, true),
      afterTransactionRollback: ({ queryRunner }) => this.settle(queryRunner, false),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.drop();
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
  }

  /** Moves on with every change this process hears of or makes; a lookup stores its read only if it did not. */
  get generation(): number {
    return this.generationValue;
  }

  /** Whether views are kept at all: only while the change notifications arrive. */
  get trusted(): boolean {
    return this.listening;
  }

  find(userUuid: string, nowMs: number): ActorRecord | null {
    // The first lookup starts listening: a worker or a command-line run that serves no request holds no connection.
    if (!this.started) {
      this.started = true;
      void this.listen();
    }
    if (!this.listening) return null;
    const entry = this.entries.get(userUuid);
    if (!entry) return null;
    if (nowMs - entry.cachedAtMs > ACTOR_CACHE_LIMITS.entryTtlMs) {
      this.entries.delete(userUuid);
      return null;
    }
    return entry.record;
  }

  /** Keeps a view read from the database, unless a change was heard since `generationBeforeRead`. */
  remember(record: ActorRecord, generationBeforeRead: number, nowMs: number): void {
    if (!this.listening || generationBeforeRead !== this.generationValue) return;
    if (this.entries.size >= ACTOR_CACHE_LIMITS.entriesMax) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(record.userUuid, { record, cachedAtMs: nowMs });
  }

  /** Drops one user's view (`*`: every view). */
  forget(userUuid: string): void {
    this.generationValue += 1;
    if (userUuid === '*') this.entries.clear();
    else this.entries.delete(userUuid);
  }

  /**
   * Drops one user's view when the transaction `manager` writes in commits (at once, outside a transaction: call it
   * after the write). Not before: a request of the same user that read the state still committed meanwhile would
   * keep that view past the commit, and until the notification arrived this process would act on it (an ended
   * session or the old password's tokens accepted, a block not biting). After a rollback nothing changed.
   */
  forgetOnCommit(manager: EntityManager, userUuid: string): void {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) {
      this.forget(userUuid);
      return;
    }
    const drops = this.dropsOnCommit.get(runner) ?? new Set<string>();
    drops.add(userUuid);
    this.dropsOnCommit.set(runner, drops);
  }

  private settle(runner: QueryRunner | undefined, committed: boolean): void {
    // A savepoint released or rolled back to: the transaction, and what it wrote, is still open.
    if (!runner || runner.isTransactionActive) return;
    const drops = this.dropsOnCommit.get(runner);
    if (!drops) return;
    this.dropsOnCommit.delete(runner);
    if (committed) for (const userUuid of drops) this.forget(userUuid);
  }

  private drop(): void {
    this.listening = false;
    this.forget('*');
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const url = (this.dataSource.options as { url?: string }).url;
    if (!url) return;
    const client = new Client({ connectionString: url, application_name: 'kupa actor cache' });
    const lost = (reason: string) => {
      if (this.listener !== client) return;
      this.listener = null;
      this.drop();
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`Actor changes are not heard (${reason}); users are read on every request until they are`);
      this.reconnectTimer = setTimeout(() => void this.listen(), ACTOR_CACHE_LIMITS.reconnectDelayMs);
      this.reconnectTimer.unref();
    };
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('the connection ended'));
    client.on('notification', (message) => {
      if (message.channel === ACTOR_CHANGED_CHANNEL) this.forget(message.payload ?? '*');
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${ACTOR_CHANGED_CHANNEL}`);
    } catch (error) {
      lost(error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.listener !== client) return;
    // Changes made while nobody listened are unknown: start from nothing.
    this.forget('*');
    this.listening = true;
  }
}
