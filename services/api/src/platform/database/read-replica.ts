import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config';
import { currentLogContext } from '../observability/log-context';
import { Metrics } from '../observability/metrics';
import { databaseUnavailability, listenForConnectionErrors } from './connection-errors';
import { DATABASE_SESSION_OPTIONS } from './session-options';
import { parseLsn, PrimaryPositions } from './replica-lag';

/**
 * The reads that may run on the replica (docs/adr/0113-read-replicas.md): searches, the export, the dashboard,
 * statements, account history and the activity log. They scan many rows and change nothing; everything else, and
 * every command, reads the primary.
 */
export const HEAVY_READS = [
  'payments-search',
  'payments-export',
  'subscriptions-search',
  'dashboard',
  'statement',
  'account-history',
  'activity-log',
] as const;
export type HeavyRead = (typeof HEAVY_READS)[number];

/** Why a heavy read went to the primary although a replica is configured. */
export type ReplicaFallbackReason = 'own_write' | 'down' | 'behind' | 'query_failed';

/** How often the replica's replay position and lag are read. */
export const REPLICA_CHECK_INTERVAL_MS = 1000;
/** A replica that does not answer within this is down for this check; the next one tries again. */
export const REPLICA_CONNECT_TIMEOUT_MS = 2000;
/** The replica's own pool: heavy reads are few at a time, and each holds its connection for a while. */
export const REPLICA_POOL_SIZE = 10;
/** How the replica's connections show in the standby's `pg_stat_activity`. */
export const REPLICA_APPLICATION_NAME = 'kupa-replica-reads';

/**
 * SQLSTATEs after which the same read is worth running on the primary although the database was reachable: a statement
 * cancelled by a conflict with recovery (40001 on a standby: the WAL it replays removed rows the statement still
 * needed), or a table or column a migration has just added and the replica has not replayed yet.
 */
const REPLICA_BEHIND_SQLSTATE = /^(40001|42P01|42703)$/;

/**
 * Whether an error of a read on the replica says the replica failed rather than the read: the replica is unavailable
 * (a lost or refused connection, a standby shutting down or starting, too many clients: `databaseUnavailability`), or
 * it is behind the primary in a way the read ran into.
 */
export function isReplicaTrouble(error: unknown): boolean {
  if (databaseUnavailability(error) !== null) return true;
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' && REPLICA_BEHIND_SQLSTATE.test(code);
}

/** Set on a request (the Express object the log context holds) once it committed events. */
const COMMITTED_EVENTS = Symbol('kupa.committedEvents');

/**
 * Called by the event store after each commit: marks the request running now, if any, as one that wrote. Every read
 * model a heavy read reads is written in an event store transaction (inline projections and the side tables that go
 * with them), so these are the writes read-your-writes is about.
 */
export function noteCommitInRequest(): void {
  const request = currentLogContext()?.request as Record<symbol, unknown> | undefined;
  if (request !== undefined) request[COMMITTED_EVENTS] = true;
}

/** Whether `request` committed events (see `noteCommitInRequest`). */
export function requestCommittedEvents(request: object): boolean {
  return (request as Record<symbol, unknown>)[COMMITTED_EVENTS] === true;
}

/** The signed-in person of the request running now, if any: the one whose own writes a read must see. */
function currentReaderUuid(): string | null {
  const request = currentLogContext()?.request as { user?: { userUuid?: unknown } } | undefined;
  const uuid = request?.user?.userUuid;
  return typeof uuid === 'string' ? uuid : null;
}

interface ReplicaState {
  up: boolean;
  /** The replica's replay position at the last look; null before the first. */
  replayLsn: bigint | null;
  lagSeconds: number;
}

/**
 * Chooses, for each heavy read, the database that serves it (docs/adr/0113-read-replicas.md). Without
 * `DATABASE_REPLICA_URL` that is always the primary's `DataSource`. With it, the replica's, unless the replica is
 * down or further behind than `DATABASE_REPLICA_MAX_LAG_SECONDS`, or the reader wrote something the replica has not
 * replayed yet (read-your-writes): after each write request `ReadYourWritesInterceptor` records the primary's WAL
 * position for its actor, and that person's heavy reads stay on the primary until the replica's replay position has
 * passed it. The positions are kept on the primary (`writer_wal_positions`), so that every API process of a fleet
 * honours a write another one took.
 */
@Injectable()
export class ReadSource implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ReadReplica');
  private replica: DataSource | null = null;
  private state: ReplicaState = { up: false, replayLsn: null, lagSeconds: 0 };
  private readonly primaryPositions: PrimaryPositions;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly primary: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    // Samples a little beyond the largest lag that matters; beyond it the answer is "behind" anyway.
    this.primaryPositions = new PrimaryPositions(2 * config.replicaMaxLagSeconds * 1000 + REPLICA_CHECK_INTERVAL_MS);
  }

  /** Whether a replica is configured (and this process serves HTTP, the only place heavy reads run). */
  get enabled(): boolean {
    return this.config.databaseReplicaUrl !== null && this.config.role !== 'worker';
  }

  async onModuleInit(): Promise<void> {
    if (!this.enabled) return;
    this.metrics.replicaGauges();
    // The first look before the first request, so a healthy replica serves from the start; a failed one only logs.
    await this.check();
    this.timer = setInterval(() => void this.check(), REPLICA_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking;
    if (this.replica?.isInitialized) await this.replica.destroy();
    this.replica = null;
  }

  /**
   * The database `read` runs on now. Counted by read and source; a read sent to the primary although a replica is
   * configured is also counted as a fallback with its reason.
   */
  async source(read: HeavyRead): Promise<DataSource> {
    if (!this.enabled) return this.primary;
    const reason = await this.primaryReason();
    if (reason !== null || this.replica === null) {
      this.metrics.replicaFallbacks.inc({ read, reason: reason ?? 'down' });
      this.metrics.heavyReads.inc({ read, source: 'primary' });
      return this.primary;
    }
    this.metrics.heavyReads.inc({ read, source: 'replica' });
    return this.replica;
  }

  /**
   * Runs `work` on the database `source` chooses; when the replica fails it (see `isReplicaTrouble`), the replica is
   * marked down until its next good check and `work` runs again on the primary. `work` must only read.
   */
  async run<Result>(read: HeavyRead, work: (db: DataSource) => Promise<Result>): Promise<Result> {
    const db = await this.source(read);
    if (db === this.primary) return work(db);
    try {
      return await work(db);
    } catch (error) {
      if (!isReplicaTrouble(error)) throw error;
      this.logger.warn(`A read on the replica failed, the primary answers it: ${(error as Error).message}`);
      this.markDown();
      this.metrics.replicaFallbacks.inc({ read, reason: 'query_failed' });
      this.metrics.heavyReads.inc({ read, source: 'primary' });
      return work(this.primary);
    }
  }

  /**
   * Notes that `userUuid` has just written: their heavy reads stay on the primary until the replica has replayed the
   * primary's WAL up to where it is now, which is past the end of that write's commit.
   */
  async recordWrite(userUuid: string): Promise<void> {
    if (!this.enabled) return;
    try {
      await this.primary.query(
        `INSERT INTO writer_wal_positions (user_uuid, lsn) VALUES ($1, pg_current_wal_lsn())
         ON CONFLICT (user_uuid) DO UPDATE SET lsn = GREATEST(writer_wal_positions.lsn, EXCLUDED.lsn)`,
        [userUuid],
      );
    } catch (error) {
      // The write is committed: its answer must not become an error. Only the next few heavy reads of this person
      // may then miss it, and only if the primary failed here yet answers the next request.
      this.logger.warn(`Could not record a write for read-your-writes: ${(error as Error).message}`);
    }
  }

  /**
   * Reads the replica's replay position and the primary's write position, and from them the lag, the gauges and
   * which recorded writes the replica now holds. One check at a time; a caller that comes during one waits for it.
   */
  check(): Promise<void> {
    this.checking ??= this.checkOnce().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    try {
      const replica = await this.connectedReplica();
      const [primaryRow] = (await this.primary.query('SELECT pg_current_wal_lsn()::text AS lsn')) as Array<{
        lsn: string;
      }>;
      this.primaryPositions.add({ atMs: Date.now(), lsn: parseLsn(primaryRow.lsn) });
      const [row] = (await replica.query(
        'SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay',
      )) as Array<{ standby: boolean; replay: string | null }>;
      if (!row.standby || row.replay === null) {
        // A promoted or wrongly named server: its data may differ from the primary's, and no position says by how much.
        if (this.state.up)
          this.logger.warn('DATABASE_REPLICA_URL is not a standby in recovery: heavy reads use the primary');
        this.markDown();
        return;
      }
      this.observeReplay(parseLsn(row.replay));
      // Every API process clears what the replica has passed; the rows are few and the table writes no WAL.
      await this.primary.query('DELETE FROM writer_wal_positions WHERE lsn <= $1::pg_lsn', [row.replay]);
      if (!this.state.up) this.logger.log('The read replica is up: heavy reads use it');
      this.state.up = true;
      this.metrics.replicaGauges().up.set(1);
      this.metrics.replicaGauges().lagBytes.set(Math.max(0, Number(parseLsn(primaryRow.lsn) - parseLsn(row.replay))));
    } catch (error) {
      if (this.state.up) this.logger.warn(`The read replica does not answer: ${(error as Error).message}`);
      this.markDown();
    }
  }

  /** Takes a replay position in, and the lag it means. */
  private observeReplay(replayLsn: bigint): void {
    this.state.replayLsn = replayLsn;
    this.state.lagSeconds = this.primaryPositions.lagSeconds(replayLsn, Date.now());
    this.metrics.replicaGauges().lagSeconds.set(this.state.lagSeconds);
  }

  private markDown(): void {
    this.state.up = false;
    this.metrics.replicaGauges().up.set(0);
  }

  /** Why a read of the request running now must go to the primary, or null when the replica may serve it. */
  private async primaryReason(): Promise<ReplicaFallbackReason | null> {
    if (!this.state.up || this.replica === null) return 'down';
    if (this.state.lagSeconds > this.config.replicaMaxLagSeconds) return 'behind';
    const reader = currentReaderUuid();
    if (reader === null) return null;
    // A point read on the primary, far cheaper than the heavy read it routes.
    const [written] = (await this.primary.query(
      'SELECT lsn::text AS lsn FROM writer_wal_positions WHERE user_uuid = $1',
      [reader],
    )) as Array<{ lsn: string }>;
    if (written === undefined) return null;
    const writtenLsn = parseLsn(written.lsn);
    if (this.state.replayLsn !== null && writtenLsn <= this.state.replayLsn) return null;
    // The last check is older than the write: ask the replica now.
    try {
      const [row] = (await this.replica.query('SELECT pg_last_wal_replay_lsn()::text AS replay')) as Array<{
        replay: string | null;
      }>;
      if (row.replay === null) return 'down';
      this.observeReplay(parseLsn(row.replay));
    } catch {
      this.markDown();
      return 'down';
    }
    return this.state.replayLsn !== null && writtenLsn <= this.state.replayLsn ? null : 'own_write';
  }

  /** The replica's data source, opened on first use and again after a failed start. */
  private async connectedReplica(): Promise<DataSource> {
    if (this.replica?.isInitialized) return this.replica;
    const replica = new DataSource({
      type: 'postgres',
      url: this.config.databaseReplicaUrl as string,
      applicationName: REPLICA_APPLICATION_NAME,
      synchronize: false,
      migrationsRun: false,
      logging: false,
      extra: {
        max: REPLICA_POOL_SIZE,
        options: DATABASE_SESSION_OPTIONS,
        connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
        onConnect: listenForConnectionErrors,
      },
    });
    await replica.initialize();
    this.replica = replica;
    return replica;
  }
}
