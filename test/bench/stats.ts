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
