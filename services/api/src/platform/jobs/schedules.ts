import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import type { Clock } from '../clock/clock';
import { withLogContext } from '../observability/log-context';
import { type Backoff, backoffDelayMs } from './backoff';
import { type RunningLoop, StoppableLoops } from './stoppable-loops';

/**
 * Time-driven work (renewals and expiries falling due, deposits left pending): instead of reacting to events, it
 * looks at the read models for what is due at the injected clock's now and acts on it. It is a recurring job: its
 * schedule row is claimed by one process across the fleet per period. Because it asks "what is due by now" rather
 * than "what happened since last time", it catches up by itself after downtime; what it does must be safe to do again
 * (each action is a command whose decider refuses a repeat), since a run whose process died is run again.
 */
export interface Sweep {
  readonly name: string;
  /** The period: how long after a run that found nothing more to do the next one starts. */
  readonly intervalMs: number;
  /** One pass over what is due now; returns how many items it acted on (a full batch asks for another pass at once). */
  sweep(): Promise<SweepPass>;
}

export interface SweepPass {
  acted: number;
  /** Whether due work is probably left (the pass stopped at its batch limit). */
  more: boolean;
}

export interface SchedulesOptions {
  /** The shortest wait of an idle claimer between looks at a schedule, and the backoff's first retry. */
  pollIntervalMs: number;
  /** How long a claimed run belongs to its process before another may take it; renewed after every pass. */
  leaseMs?: number;
  /** Told about every failed run (the run is tried again after the backoff). */
  onError?: (name: string, error: unknown) => void;
}

/**
 * How long a run of a recurring job belongs to its process when nothing renews it: a process killed mid-run leaves
 * the run to another after this. Every pass renews it, and a pass takes seconds.
 */
export const SCHEDULE_LEASE_MS = 5 * 60_000;

/** Names this process in the claim log lines and the schedule rows, so that an operator sees where a job moved. */
const PROCESS_NAME = `${hostname()} pid ${process.pid}`;

/**
 * Runs the recurring jobs (docs/adr/0067-one-substrate-for-background-work.md). Each has a row in `job_schedules`:
 * every process polls it, and the one whose conditional update takes the due row (`FOR UPDATE SKIP LOCKED`, then
 * the next run moved past a lease under a fresh claim token) runs it; the others find it not due. A finished run sets
 * the next one a period later; a failed one, after the capped doubling from the poll interval up to the period; a
 * process that died mid-run lets the lease lapse, and the next claimer runs it again.
 *
 * The period is kept with `clock` (the system clock in production and in API specs: how often to look is operational
 * time; the sweeps judge what is due with the application's clock). Int-specs pass a `ManualClock`.
 */
export class Schedules {
  private readonly sweeps = new Map<string, Sweep>();
  private readonly loops = new StoppableLoops();
  private readonly ensured = new Set<string>();
  private readonly leaseMs: number;
  private readonly logger = new Logger('Schedules');
  private running = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly options: SchedulesOptions,
  ) {
    this.leaseMs = options.leaseMs ?? SCHEDULE_LEASE_MS;
  }

  register(sweep: Sweep): void {
    if (this.sweeps.has(sweep.name)) throw new Error(`Sweep ${sweep.name} is registered twice`);
    this.sweeps.set(sweep.name, sweep);
    if (this.running) this.startLoop(sweep);
  }

  names(): string[] {
    return [...this.sweeps.keys()];
  }

  /** Starts a loop for every recurring job, registered now or later, until `stop()`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    for (const sweep of this.sweeps.values()) this.startLoop(sweep);
  }

  /** Lets every run in hand finish its pass, gives its claim back, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loops.stopAll();
  }

  /**
   * Runs a sweep's passes until nothing due is left, without claiming its schedule: for tests (after moving the
   * clock) and one-shot CLI runs. Returns how many items the passes acted on.
   */
  async sweepNow(name: string): Promise<number> {
    const sweep = this.sweep(name);
    let acted = 0;
    for (;;) {
      const pass = await sweep.sweep();
      acted += pass.acted;
      if (!pass.more) return acted;
    }
  }

  /**
   * Claims the schedule if its run is due and runs it: its passes until nothing due is left (renewing the lease
   * after each), then sets the next run. Answers whether this process ran it and when the next run is due.
   */
  async runIfDue(name: string, stopped: () => boolean = () => false): Promise<{ ran: boolean; nextRunAt: Date }> {
    const sweep = this.sweep(name);
    await this.ensureRow(name);
    const claim = await this.claim(sweep);
    if (claim.token === null) return { ran: false, nextRunAt: claim.nextRunAt };
    const token = claim.token;
    try {
      for (;;) {
        const pass = await sweep.sweep();
        if (!pass.more) break;
        if (stopped()) return { ran: true, nextRunAt: await this.release(name, token, this.clock.now(), null, 0) };
        if (!(await this.renew(name, token))) {
          this.logger.warn(`${PROCESS_NAME} lost its claim on ${name}: its lease lapsed during the run`);
          return { ran: true, nextRunAt: this.clock.now() };
        }
      }
      const now = this.clock.now();
      const next = new Date(now.getTime() + sweep.intervalMs);
      return { ran: true, nextRunAt: await this.release(name, token, next, null, 0, now) };
    } catch (error) {
      this.options.onError?.(name, error);
      const failures = claim.failures + 1;
      const backoff: Backoff = { baseMs: this.options.pollIntervalMs, maxMs: sweep.intervalMs };
      const next = new Date(this.clock.now().getTime() + backoffDelayMs(backoff, failures));
      return { ran: true, nextRunAt: await this.release(name, token, next, error, failures) };
    }
  }

  private sweep(name: string): Sweep {
    const sweep = this.sweeps.get(name);
    if (!sweep) throw new Error(`No sweep named ${name}`);
    return sweep;
  }

  /** A new schedule is due at once: the first process to start runs it, as a new leader used to. */
  private async ensureRow(name: string): Promise<void> {
    if (this.ensured.has(name)) return;
    await this.dataSource.query(
      'INSERT INTO job_schedules (name, next_run_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
      [name, this.clock.now()],
    );
    this.ensured.add(name);
  }

  /**
   * Takes the due schedule row, or answers when it is due. Two claimers at once: the one that locks the row takes
   * it, the other skips it, and finds it not due once the first committed. A next run further away than a period and
   * a lease can only come from a clock that went back: it is due too.
   */
  private async claim(sweep: Sweep): Promise<{ token: string | null; failures: number; nextRunAt: Date }> {
    const now = this.clock.now();
    const farthest = new Date(now.getTime() + sweep.intervalMs + this.leaseMs);
    const token = randomUUID();
    // An UPDATE answers its rows and its count (TypeORM).
    const [claimed]: [{ failures: number; previous: string | null }[], number] = await this.dataSource.query(
      `WITH due AS (
         SELECT name, claimed_by FROM job_schedules
          WHERE name = $1 AND (next_run_at <= $2 OR next_run_at > $3)
          FOR UPDATE SKIP LOCKED)
       UPDATE job_schedules s
          SET next_run_at = $4, claim_token = $5, claimed_by = $6, claimed_at = $2
         FROM due WHERE s.name = due.name
       RETURNING s.failures, due.claimed_by AS previous`,
      [sweep.name, now, farthest, new Date(now.getTime() + this.leaseMs), token, PROCESS_NAME],
    );
    const row = claimed[0];
    if (row) {
      if (row.previous !== PROCESS_NAME) this.logger.log(`${PROCESS_NAME} runs ${sweep.name}`);
      return { token, failures: row.failures, nextRunAt: now };
    }
    const rows: { next_run_at: Date }[] = await this.dataSource.query(
      'SELECT next_run_at FROM job_schedules WHERE name = $1',
      [sweep.name],
    );
    return { token: null, failures: 0, nextRunAt: rows[0]?.next_run_at ?? now };
  }

  /** Moves the lease on while the claim is still ours; false when another process took the run meanwhile. */
  private async renew(name: string, token: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      'UPDATE job_schedules SET next_run_at = $3 WHERE name = $1 AND claim_token = $2',
      [name, token, new Date(this.clock.now().getTime() + this.leaseMs)],
    );
    return affected === 1;
  }

  /** Ends a run: the next run, the failures in a row, and the claim given back (if still ours). */
  private async release(
    name: string,
    token: string,
    next: Date,
    error: unknown,
    failures: number,
    finishedAt: Date | null = null,
  ): Promise<Date> {
    await this.dataSource.query(
      `UPDATE job_schedules
          SET next_run_at = $3, claim_token = NULL, failures = $4, last_error = $5,
              last_run_at = COALESCE($6, last_run_at)
        WHERE name = $1 AND claim_token = $2`,
      [name, token, next, failures, error === null ? null : describe(error), finishedAt],
    );
    return next;
  }

  private startLoop(sweep: Sweep): void {
    this.loops.start(sweep.name, (loop) =>
      withLogContext({ operation: `sweep ${sweep.name}` }, () => this.runLoop(sweep, loop)),
    );
  }

  /**
   * Claims and runs the schedule when due; between tries, sleeps until the next run is due, at least the poll interval
   * and at most the period.
   */
  private async runLoop(sweep: Sweep, loop: RunningLoop): Promise<void> {
    while (!loop.stopping) {
      let waitMs = this.options.pollIntervalMs;
      try {
        const { nextRunAt } = await this.runIfDue(sweep.name, () => loop.stopping);
        const untilNextMs = nextRunAt.getTime() - this.clock.now().getTime();
        waitMs = Math.max(this.options.pollIntervalMs, Math.min(untilNextMs, sweep.intervalMs));
      } catch (error) {
        // The database was unreachable: the schedule row is untouched, so try again after the poll interval.
        this.options.onError?.(sweep.name, error);
      }
      await loop.pause(waitMs);
    }
  }
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
