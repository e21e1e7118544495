import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import {
  nodeTreeOf,
  type ProcessEntry,
  processRole,
  readProcessTable,
  round,
  runConcurrently,
  summarise,
} from './stats.ts';

/**
 * Where the machine's CPU went while a timed phase ran, read from every process's `/proc/<pid>/stat` before and after
 * it: the bench's server by process role (its cluster primary, API processes and worker), PostgreSQL's processes, the
 * bench itself (the load generator shares the cores), and everything else on the machine. Divided by the operations
 * of the phase, it says what one operation costs the machine, so that a rate is read against what two cores can hold.
 * A process that starts inside the phase is counted from its start; one that ends inside it is not counted at all
 * (the server's processes and the database's pooled backends live longer than a phase).
 */
export interface CpuUse {
  wallMs: number;
  /** CPU time spent during the phase, in milliseconds, by who spent it. */
  cpuMsByGroup: Record<string, number>;
  totalCpuMs: number;
  /** The machine's cores kept busy, as a share of all of them over the phase. */
  busyShareOfCores: number;
}

const CLOCK_TICKS_PER_SECOND = clockTicksPerSecond();

function clockTicksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

function groupOf(pid: number, times: ProcessEntry, roles: Map<number, string>): string {
  const role = roles.get(pid);
  if (role !== undefined) return `server ${role}`;
  if (pid === process.pid) return 'bench client';
  if (times.command === 'postgres') return 'postgres';
  return 'other processes';
}

/** Runs one timed phase and answers its result with the CPU every part of the machine spent meanwhile. */
export async function withCpuUse<T>(
  serverPid: number,
  phase: () => Promise<T>,
): Promise<{ result: T; cpuUse: CpuUse }> {
  const before = readProcessTable();
  const roles = new Map(nodeTreeOf(serverPid, before).map((pid) => [pid, processRole(pid)]));
  const started = performance.now();
  const result = await phase();
  const wallMs = performance.now() - started;
  const after = readProcessTable();
  const cpuMsByGroup: Record<string, number> = {};
  let totalCpuMs = 0;
  for (const [pid, end] of after) {
    const start = before.get(pid);
    // A pid seen twice with another command, or with fewer ticks, was reused by a new process.
    if (start && (start.command !== end.command || end.cpuTicks < start.cpuTicks)) continue;
    // A process started during the phase (a database backend for a pool that grew with the clients) spent all of
    // its time in it.
    const cpuMs = ((end.cpuTicks - (start?.cpuTicks ?? 0)) * 1000) / CLOCK_TICKS_PER_SECOND;
    if (cpuMs === 0) continue;
    const group = groupOf(pid, end, roles);
    cpuMsByGroup[group] = (cpuMsByGroup[group] ?? 0) + cpuMs;
    totalCpuMs += cpuMs;
  }
  return {
    result,
    cpuUse: {
      wallMs: round(wallMs, 0),
      cpuMsByGroup: Object.fromEntries(Object.entries(cpuMsByGroup).map(([group, ms]) => [group, round(ms, 0)])),
      totalCpuMs: round(totalCpuMs, 0),
      busyShareOfCores: round(totalCpuMs / (wallMs * availableParallelism()), 3),
    },
  };
}

/** Each group's CPU per operation of the phase, in milliseconds. */
export function cpuMsPerOperation(cpuUse: CpuUse, operations: number): Record<string, number> {
  const perOperation: Record<string, number> = { total: round(cpuUse.totalCpuMs / Math.max(1, operations), 2) };
  for (const [group, ms] of Object.entries(cpuUse.cpuMsByGroup))
    perOperation[group] = round(ms / Math.max(1, operations), 2);
  return perOperation;
}

/** One party's CPU per operation: its server processes and PostgreSQL, not the bench's client nor the rest. */
export function partyCpuMsPerOperation(perOperation: Record<string, number>): number {
  return round(
    Object.entries(perOperation)
      .filter(([group]) => group.startsWith('server ') || group === 'postgres')
      .reduce((sum, [, ms]) => sum + ms, 0),
    2,
  );
}

/** A closed-loop level timed with the CPU it cost: its rate, p50/p99, and each group's and the party's CPU per op. */
export async function measureLevel(
  serverPid: number,
  concurrency: number,
  durationMs: number,
  operation: (worker: number, iteration: number) => Promise<void>,
): Promise<Record<string, unknown> & { perSecond: number; p99Ms: number; partyCpuMsPerOperation: number }> {
  const { result, cpuUse } = await withCpuUse(serverPid, () => runConcurrently(concurrency, durationMs, operation));
  const latency = summarise(result.latenciesMs);
  const perOperation = cpuMsPerOperation(cpuUse, latency.count);
  return {
    perSecond: result.perSecond,
    p50Ms: latency.p50Ms,
    p99Ms: latency.p99Ms,
    count: latency.count,
    partyCpuMsPerOperation: partyCpuMsPerOperation(perOperation),
    cpuMsPerOperation: perOperation,
    busyShareOfCores: cpuUse.busyShareOfCores,
  };
}
