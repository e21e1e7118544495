/**
 * The operational scenarios of the bench: how long `npm start` takes to be ready on a data directory it initialised
 * before, and a soak at half the measured maximum that watches memory and latency over time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/kupa-server.ts';
import { type Api, type BenchUser } from './http.ts';
import { memoryOfNodeTree, percentile, round } from './stats.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const READY_TIMEOUT_MS = 120_000;
const READY_POLL_MS = 25;

/** Starts `npm start`'s script on `dataDir` and answers the process and how long it took until ready. */
async function startUntilReady(
  dataDir: string,
  port: number,
): Promise<{ child: ChildProcess; readyMs: number; output: () => string }> {
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, [join(REPO_ROOT, 'scripts/start.mjs')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      KUPA_DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO_DATA: '0',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = started + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited before it was ready:\n${output.slice(-3000)}`);
    try {
      if ((await fetch(`${baseUrl}/api/health/ready`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`npm start was not ready within ${READY_TIMEOUT_MS} ms:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  return { child, readyMs: round(performance.now() - started, 0), output: () => output };
}

async function stopGracefully(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/**
 * `npm start` on the built tree with the embedded database, twice on one data directory: the first start
 * initialises it (a new PostgreSQL cluster, migrations, secrets), the second is the one the target judges — an
 * operator's restart — timed from the process's spawn until `/api/health/ready` answers 200.
 */
export async function measureStartup(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kupa-bench-start-'));
  // The embedded PostgreSQL runs as the postgres user when we are root; it must be able to enter the directory.
  chmodSync(dataDir, 0o755);
  try {
    const port = await freePort();
    const first = await startUntilReady(dataDir, port);
    await stopGracefully(first.child);
    const again = await startUntilReady(dataDir, port);
    await stopGracefully(again.child);
    return { initialisingStartMs: first.readyMs, startOnInitialisedDataMs: again.readyMs };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface SoakOptions {
  api: Api;
  serverPid: number;
  /** Funded pairs of clients: transfers go back and forth within each pair. */
  pairs: BenchUser[];
  /** Transfers per second to offer, whatever the answers' pace (an open loop: a slow server meets a queue). */
  ratePerSecond: number;
  durationMs: number;
  /** One sample of memory and latency per window. */
  windowMs: number;
  /** The first part of the run, left out of the drift figures while caches and pools fill. */
  warmUpMs: number;
}

/**
 * Offers transfers at a fixed rate for `durationMs`, samples the server's RSS and the window's p99 every `windowMs`,
 * and answers the errors, the RSS growth after warm-up and the p99 drift (the last window against the first after
 * warm-up). In-flight requests are capped, so a stalled server cannot make the bench itself run out of memory.
 */
export async function measureSoak(options: SoakOptions): Promise<Record<string, unknown>> {
  const { api, pairs, ratePerSecond, durationMs, windowMs, warmUpMs } = options;
  const inFlightMax = pairs.length * 4;
  const samples: Array<{ atMs: number; rssMiB: number; p99Ms: number; requests: number }> = [];
  let windowLatencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let offered = 0;
  let skipped = 0;
  let inFlight = 0;
  const started = performance.now();
  const intervalMs = 1000 / ratePerSecond;
  const pending = new Set<Promise<void>>();

  const transfer = async (index: number): Promise<void> => {
    const pair = index % (pairs.length / 2);
    const [left, right] = [pairs[pair * 2], pairs[pair * 2 + 1]];
    const [from, to] = Math.floor(index / (pairs.length / 2)) % 2 === 0 ? [left, right] : [right, left];
    const begun = performance.now();
    try {
      await api.call('POST', '/payments/transfer', from.token, { recipient: to.email, amount: 0.01 });
      windowLatencies.push(performance.now() - begun);
    } catch (error) {
      errors += 1;
      firstError ??= error instanceof Error ? error.message : String(error);
    }
  };

  let nextWindowAt = started + windowMs;
  for (let index = 0; ; index += 1) {
    const due = started + index * intervalMs;
    const now = performance.now();
    if (now - started >= durationMs) break;
    if (due > now) await new Promise((resolve) => setTimeout(resolve, due - now));
    if (performance.now() >= nextWindowAt) {
      samples.push({
        atMs: Math.round(performance.now() - started),
        rssMiB: memoryOfNodeTree(options.serverPid).rssMiB,
        p99Ms: percentile(windowLatencies, 0.99),
        requests: windowLatencies.length,
      });
      windowLatencies = [];
      nextWindowAt += windowMs;
    }
    offered += 1;
    if (inFlight >= inFlightMax) {
      skipped += 1;
      continue;
    }
    inFlight += 1;
    const request = transfer(index).finally(() => {
      inFlight -= 1;
      pending.delete(request);
    });
    pending.add(request);
  }
  await Promise.all(pending);

  const afterWarmUp = samples.filter((sample) => sample.atMs > warmUpMs);
  const first = afterWarmUp[0];
  const last = afterWarmUp[afterWarmUp.length - 1];
  const percentChange = (from: number | undefined, to: number | undefined): number | null =>
    from && to !== undefined ? round(((to - from) / from) * 100, 1) : null;
  return {
    ratePerSecond: round(ratePerSecond, 1),
    durationMs,
    offered,
    // Offered while the cap of requests in flight was reached: the server could not keep up with the rate.
    notSentServerBehind: skipped,
    errors,
    firstError,
    rssAfterWarmUpMiB: first?.rssMiB ?? null,
    rssAtEndMiB: last?.rssMiB ?? null,
    rssGrowthPercent: percentChange(first?.rssMiB, last?.rssMiB),
    p99AfterWarmUpMs: first?.p99Ms ?? null,
    p99AtEndMs: last?.p99Ms ?? null,
    p99DriftPercent: percentChange(first?.p99Ms, last?.p99Ms),
    samples,
  };
}
