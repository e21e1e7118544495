import { readdirSync, readFileSync } from 'node:fs';

/** Latency summaries for the benchmark: nearest-rank percentiles over recorded samples in milliseconds. */
export function percentile(samplesMs: readonly number[], fraction: number): number {
  if (samplesMs.length === 0) return 0;
  const sorted = [...samplesMs].sort((left, right) => left - right);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return round(sorted[rank]);
}

export function round(value: number, places = 2): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function summarise(samplesMs: readonly number[]): LatencySummary {
  return {
    count: samplesMs.length,
    p50Ms: percentile(samplesMs, 0.5),
    p95Ms: percentile(samplesMs, 0.95),
    p99Ms: percentile(samplesMs, 0.99),
    maxMs: round(samplesMs.reduce((max, value) => Math.max(max, value), 0)),
  };
}

/** Runs `workers` loops of `operation` until `durationMs` has passed; answers operations per second and latencies. */
export async function runConcurrently(
  workers: number,
  durationMs: number,
  operation: (worker: number, iteration: number) => Promise<void>,
): Promise<{ operations: number; perSecond: number; latenciesMs: number[] }> {
  const latenciesMs: number[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: workers }, async (_unused, worker) => {
      for (let iteration = 0; performance.now() < deadline; iteration += 1) {
        const begun = performance.now();
        await operation(worker, iteration);
        latenciesMs.push(performance.now() - begun);
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  return { operations: latenciesMs.length, perSecond: round((latenciesMs.length * 1000) / elapsedMs, 1), latenciesMs };
}

/** The resident set of a process now, and its high-water mark, in MiB (Linux /proc). */
export function memoryOf(pid: number, readFile: (path: string) => string): { rssMiB: number; hwmMiB: number } {
  const status = readFile(`/proc/${pid}/status`);
  const kib = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: round(kib('VmRSS') / 1024, 1), hwmMiB: round(kib('VmHWM') / 1024, 1) };
}

export interface ProcessEntry {
  command: string;
  parentPid: number;
  /** User and system time so far, in clock ticks. */
  cpuTicks: number;
}

/** Every process of the machine now, from `/proc/<pid>/stat`. */
export function readProcessTable(): Map<number, ProcessEntry> {
  const processes = new Map<number, ProcessEntry>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // `pid (comm) state ppid …`: the command may hold spaces and parentheses, so read around the last ')'.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      // After the command: state, ppid, …; utime and stime are the 14th and 15th fields of the whole line.
      processes.set(Number(entry), {
        command: stat.slice(stat.indexOf('(') + 1, close),
        parentPid: Number(fields[1]),
        cpuTicks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended while the list was read.
    }
  }
  return processes;
}

/** A process and every Node.js process below it (the bench's server: its primary, API processes and worker). */
export function nodeTreeOf(rootPid: number, processes: Map<number, ProcessEntry> = readProcessTable()): number[] {
  const tree = [rootPid];
  for (let index = 0; index < tree.length; index += 1)
    for (const [pid, { parentPid, command }] of processes)
      if (parentPid === tree[index] && command === 'node') tree.push(pid);
  return tree;
}

/**
 * The resident sets of a process and of every Node.js process below it, added up, in MiB: the server's memory when
 * it runs as a cluster (`WEB_CONCURRENCY`), its primary and API and worker processes. The embedded PostgreSQL, also
 * below it, is left out: its shared buffers would be counted once per backend.
 */
export function memoryOfNodeTree(rootPid: number): {
  rssMiB: number;
  hwmMiB: number;
  processes: number;
  /** Each process's RSS, by pid, so that a growth of the sum can be put on the process that grew. */
  rssMiBByPid: Map<number, number>;
} {
  const tree = nodeTreeOf(rootPid);
  let rssMiB = 0;
  let hwmMiB = 0;
  const rssMiBByPid = new Map<number, number>();
  for (const pid of tree) {
    try {
      const memory = memoryOf(pid, (path) => readFileSync(path, 'utf8'));
      rssMiB += memory.rssMiB;
      hwmMiB += memory.hwmMiB;
      rssMiBByPid.set(pid, memory.rssMiB);
    } catch {
      // Ended meanwhile.
    }
  }
  return { rssMiB: round(rssMiB, 1), hwmMiB: round(hwmMiB, 1), processes: tree.length, rssMiBByPid };
}

/** What a process of the bench's server is, by its `KUPA_ROLE` (the cluster primary has none). */
export function processRole(pid: number): string {
  try {
    const role = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((entry) => entry.startsWith('KUPA_ROLE='));
    return role === undefined ? 'primary' : role.slice('KUPA_ROLE='.length);
  } catch {
    return 'ended';
  }
}
