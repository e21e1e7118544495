import { Logger } from '@nestjs/common';
import { hostname } from 'node:os';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { CommittedEvent, EventStore, GlobalCheckpoint } from '../event-store/event-store.port';
import { type Backoff, backoffDelayMs } from '../jobs/backoff';
import { type RunningLoop, StoppableLoops } from '../jobs/stoppable-loops';
import { withLogContext } from '../observability/log-context';

/**
 * An asynchronous consumer of the whole store (e-mails, provisioning, renewals, notifications). Its effects and its
 * checkpoint commit together, so a crash never loses or repeats a batch's database effects; effects outside the
 * database (an e-mail) must still be idempotent, keyed by the event's id.
 */
export interface Processor {
  readonly name: string;
  /** Event types it reacts to; `'*'` for every event. Other events only move its checkpoint. */
  readonly handles: readonly string[] | '*';
  handle(events: readonly CommittedEvent[], manager: EntityManager): Promise<void>;
  /**
   * How long to wait after failed batches, for a processor whose effects reach another system that may be down for
   * a while (the Kafka publisher): the first retry after `baseMs`, doubling up to `maxMs`, and back to the poll
   * interval after a batch succeeds. Without it a failed batch is tried again after the poll interval.
   */
  readonly retryBackoff?: RetryBackoff;
  /**
   * How long this processor's idle leader waits before looking for new events, when its readers wait for it and the
   * runner's poll interval is too long for them (the activity log, ADR 0126). Unset: the runner's. A commit in the
   * same process wakes it sooner either way; this bounds the wait for a commit made in another process.
   */
  readonly idlePollIntervalMs?: number;
}

/** A processor's retry wait: the capped doubling every background job uses (platform/jobs). */
export type RetryBackoff = Backoff;

export interface ProcessorRunnerOptions {
  /** How long an idle leader waits before looking for new events, and a follower before trying to lead. */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Told about every failed batch (the batch rolls back and is tried again after the poll interval). */
  onError?: (processorName: string, error: unknown) => void;
  /** Told after a batch that handled events committed: its effects (mails, jobs, events) may be work for others. */
  onHandled?: () => void;
}

export const DEFAULT_POLL_INTERVAL_MS = 500;
/** How often `passedHead` looks at the checkpoint again while it waits. */
const PASSED_HEAD_PAUSE_MS = 10;
export const DEFAULT_PROCESSOR_BATCH_SIZE = 100;
/** First key of the two-key advisory lock: keeps processor locks apart from any other advisory lock user. */
export const PROCESSOR_LOCK_NAMESPACE = 0x4b555041;

/** Names this process in the leadership log lines, so that an operator sees where a processor moved. */
const PROCESS_NAME = `${hostname()} pid ${process.pid}`;

/** Another runner moved this processor's checkpoint while a batch ran; the batch was rolled back. */
export class CheckpointMovedError extends Error {
  constructor(readonly processorName: string) {
    super(`The checkpoint of processor ${processorName} moved during a batch`);
    this.name = 'CheckpointMovedError';
  }
}

/** A processor's loop: the stoppable loop, and the connection holding its advisory lock while this runner leads. */
interface LeaderLoop {
  readonly loop: RunningLoop;
  leader: QueryRunner | null;
}

/**
 * Runs every registered processor in its own loop. One runner per API replica; on each processor only one runner
 * leads, the one holding the session-level advisory lock named after it on a connection kept open while leading.
 * The others poll for the lock and take over when the leader stops or its connection dies.
 */
export class ProcessorRunner {
  private readonly processors = new Map<string, Processor>();
  private readonly loops = new StoppableLoops();
  private readonly leaderLoops = new Map<string, LeaderLoop>();
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly logger = new Logger('ProcessorRunner');
  private running = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly options: ProcessorRunnerOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.batchSize = options.batchSize ?? DEFAULT_PROCESSOR_BATCH_SIZE;
  }

  register(processor: Processor): void {
    if (this.processors.has(processor.name)) throw new Error(`Processor ${processor.name} is registered twice`);
    this.processors.set(processor.name, processor);
    if (this.running) this.startLoop(processor);
  }

  /** Starts a loop for every processor, registered now or later, until `stop()`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    for (const processor of this.processors.values()) this.startLoop(processor);
  }

  /** Lets every loop finish its current batch, then releases the advisory locks and their connections. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loops.stopAll();
    this.leaderLoops.clear();
  }

  /** Runs every idle loop's next batch now rather than after its poll interval: new events were committed. */
  wake(): void {
    this.loops.wakeAll();
  }

  /** The registered processors' names: the checkpoints whose lag the metrics watch. */
  processorNames(): string[] {
    return [...this.processors.keys()];
  }

  isLeading(name: string): boolean {
    return this.leaderLoops.get(name)?.leader != null;
  }

  /**
   * Handles everything readable now, batch after batch, without the advisory lock (the checkpoint guard still
   * forbids double handling). For tests and one-shot CLI runs. Returns the number of events the checkpoints passed.
   */
  async drain(name?: string): Promise<number> {
    const selected = name === undefined ? [...this.processors.values()] : [this.processor(name)];
    let passed = 0;
    for (const processor of selected) {
      await this.ensureCheckpoint(processor.name);
      for (;;) {
        const read = await this.runBatch(processor);
        passed += read;
        if (read < this.batchSize) break;
      }
    }
    return passed;
  }

  /**
   * Waits until processor `name`'s checkpoint has passed the newest commit at the call, polling every
   * `PASSED_HEAD_PAUSE_MS`, at most `limitMs`; whether it did. For readers of what a processor keeps that must see
   * what was committed before them (the activity log, ADR 0126). One round trip when it has passed already.
   */
  async passedHead(name: string, limitMs: number): Promise<boolean> {
    const deadline = Date.now() + limitMs;
    const [{ head, at }]: Array<{ head: string; at: string }> = await this.dataSource.query(
      `SELECT (SELECT coalesce(max(commit_position), 0) FROM event_commits)::text AS head,
              (SELECT coalesce(max(commit_position), 0) FROM checkpoints WHERE name = $1)::text AS at`,
      [name],
    );
    let position = BigInt(at);
    while (position < BigInt(head) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, PASSED_HEAD_PAUSE_MS));
      position = BigInt((await this.checkpoint(name))?.commitPosition ?? '0');
    }
    return position >= BigInt(head);
  }

  async checkpoint(name: string): Promise<GlobalCheckpoint | null> {
    const rows: { commit_position: string }[] = await this.dataSource.query(
      'SELECT commit_position::text AS commit_position FROM checkpoints WHERE name = $1',
      [name],
    );
    return rows[0] ? { commitPosition: rows[0].commit_position } : null;
  }

  /**
   * One batch in one transaction: read the checkpoint, read the events after it in commit order, handle them, move
   * the checkpoint only if nobody else moved it meanwhile. Returns the number of events read.
   */
  async runBatch(processor: Processor): Promise<number> {
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.connect();
    try {
      await queryRunner.startTransaction();
      const rows: { commit_position: string }[] = await queryRunner.query(
        'SELECT commit_position::text AS commit_position FROM checkpoints WHERE name = $1',
        [processor.name],
      );
      if (!rows[0]) throw new Error(`Processor ${processor.name} has no checkpoint row`);
      const from: GlobalCheckpoint = { commitPosition: rows[0].commit_position };
      const batch = await this.store.readAllOfTypes(from, this.batchSize, processor.handles, {
        manager: queryRunner.manager,
      });
      const { end } = batch;
      if (end === null) {
        await queryRunner.commitTransaction();
        return 0;
      }
      if (batch.events.length > 0) await processor.handle(batch.events, queryRunner.manager);
      // Compare-and-set: under READ COMMITTED a concurrent mover makes this UPDATE wait, then match nothing.
      const moved = await queryRunner.query(
        `UPDATE checkpoints SET commit_position = $2::bigint, updated_at = now()
          WHERE name = $1 AND commit_position = $3::bigint`,
        [processor.name, end.commitPosition, from.commitPosition],
        true,
      );
      if (moved.affected !== 1) throw new CheckpointMovedError(processor.name);
      await queryRunner.commitTransaction();
      if (batch.events.length > 0) this.options.onHandled?.();
      return batch.read;
    } catch (error) {
      if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await queryRunner.release();
    }
  }

  private processor(name: string): Processor {
    const processor = this.processors.get(name);
    if (!processor) throw new Error(`No processor named ${name}`);
    return processor;
  }

  private async ensureCheckpoint(name: string): Promise<void> {
    await this.dataSource.query('INSERT INTO checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
  }

  /**
   * One loop per processor: take the advisory lock named after it (or wait for it), making its checkpoint row each
   * time the lock is taken, then run batches while a full one says more events wait, pausing the poll interval
   * whenever one does not. The loop runs under `processor <name>`: its log lines and the commands it runs are told
   * apart by it. After a failure the loop waits the processor's `retryBackoff` for the failures in a row, or the poll
   * interval.
   */
  private startLoop(processor: Processor): void {
    this.loops.start(processor.name, (running) => {
      const loop: LeaderLoop = { loop: running, leader: null };
      this.leaderLoops.set(processor.name, loop);
      return withLogContext({ operation: `processor ${processor.name}` }, () => this.runLoop(processor, loop));
    });
  }

  private async runLoop(processor: Processor, loop: LeaderLoop): Promise<void> {
    const { name, retryBackoff } = processor;
    let failures = 0;
    while (!loop.loop.stopping) {
      try {
        if (!loop.leader) {
          loop.leader = await this.tryLead(name);
          if (!loop.leader) {
            await loop.loop.pause(this.pollIntervalMs);
            continue;
          }
          await this.ensureCheckpoint(name);
        }
        const more = (await this.runBatch(processor)) >= this.batchSize;
        failures = 0;
        if (!more) {
          await this.confirmLeadership(name, loop);
          await loop.loop.pause(processor.idlePollIntervalMs ?? this.pollIntervalMs);
        }
      } catch (error) {
        failures += 1;
        this.options.onError?.(name, error);
        await loop.loop.pause(retryBackoff ? backoffDelayMs(retryBackoff, failures) : this.pollIntervalMs);
      }
    }
    await this.resign(name, loop);
  }

  private async tryLead(name: string): Promise<QueryRunner | null> {
    const queryRunner = this.dataSource.createQueryRunner();
    try {
      await queryRunner.connect();
      const rows: { locked: boolean }[] = await queryRunner.query(
        'SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS locked',
        [PROCESSOR_LOCK_NAMESPACE, name],
      );
      if (rows[0]?.locked) {
        this.logger.log(`${PROCESS_NAME} leads ${name}`);
        return queryRunner;
      }
    } catch (error) {
      await queryRunner.release();
      throw error;
    }
    await queryRunner.release();
    return null;
  }

  /** A dead lock connection means the lock is gone and someone else may lead: stop leading until it is retaken. */
  private async confirmLeadership(name: string, loop: LeaderLoop): Promise<void> {
    if (!loop.leader) return;
    try {
      await loop.leader.query('SELECT 1');
    } catch (error) {
      await loop.leader.release().catch(() => undefined);
      loop.leader = null;
      this.logger.warn(`${PROCESS_NAME} stopped leading ${name}: its lock connection failed`);
      throw error;
    }
  }

  private async resign(name: string, loop: LeaderLoop): Promise<void> {
    const leader = loop.leader;
    loop.leader = null;
    if (!leader) return;
    try {
      await leader.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', [PROCESSOR_LOCK_NAMESPACE, name]);
    } finally {
      await leader.release();
      this.logger.log(`${PROCESS_NAME} stopped leading ${name}`);
    }
  }
}
