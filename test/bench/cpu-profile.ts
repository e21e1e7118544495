import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { nodeTreeOf, processRole, round } from './stats.ts';

/**
 * A CPU profile of the bench's server over one timed phase, and where its time went. With BENCH_CPU_PROFILE_DIR set,
 * the server's processes load `cpu-profile-preload.cjs`; the bench signals its API processes and its worker at the
 * start and the end of the phase and reads the profiles they write. Each profile is summed by self time into the
 * categories of the command path's profile in docs/benchmarks.md, so that a later profile compares with it.
 */

const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR ? resolve(process.env.BENCH_CPU_PROFILE_DIR) : undefined;
const CPU_PROFILE_PRELOAD = join(import.meta.dirname, 'cpu-profile-preload.cjs');

/** What the server's environment needs for its processes to take a profile on the bench's signal. */
export function cpuProfileServerEnv(): Record<string, string> {
  if (!CPU_PROFILE_DIR) return {};
  mkdirSync(CPU_PROFILE_DIR, { recursive: true });
  return {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${CPU_PROFILE_PRELOAD}`.trim(),
    KUPA_BENCH_CPU_PROFILE_DIR: CPU_PROFILE_DIR,
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileBreakdown {
  processes: number;
  /** Time the profiler saw the processes running JavaScript, the garbage collector or V8 itself (idle left out). */
  busyMs: number;
  idleMs: number;
  /** Each category's share of the busy time, largest first. */
  categories: Array<{ category: string; share: number }>;
  /** The functions with the most self time, as a share of the busy time. */
  topFunctions: Array<{ function: string; share: number }>;
}

const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writevGeneric']);

const HTTP_FRAMEWORK_PACKAGES = [
  '@nestjs',
  'express',
  'body-parser',
  'raw-body',
  'router',
  'finalhandler',
  'class-validator',
  'class-transformer',
  'passport',
  'passport-jwt',
  'jsonwebtoken',
  'jws',
  'jwa',
  'qs',
  'iconv-lite',
  'on-finished',
  'type-is',
  'content-type',
  'path-to-regexp',
  'rxjs',
];

/** The package a file under node_modules belongs to (`@scope/name` or `name`), or null outside node_modules. */
function packageOf(url: string): string | null {
  const marker = url.lastIndexOf('node_modules/');
  if (marker < 0) return null;
  const [first, second] = url.slice(marker + 'node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** The category of one function, by where its code lives; the names follow the earlier profile's table. */
export function categoryOf(frame: ProfileNode['callFrame']): string {
  const { functionName, url } = frame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 and native code outside JavaScript';
  if (SOCKET_WRITES.has(functionName)) return 'socket writes';
  const pkg = packageOf(url);
  if (pkg !== null) {
    if (pkg === 'pg' || pkg.startsWith('pg-')) return 'the pg driver';
    if (pkg === 'typeorm') return 'TypeORM';
    if (pkg === 'pino' || pkg.startsWith('pino-') || pkg === 'prom-client') return 'logging and metrics';
    if (HTTP_FRAMEWORK_PACKAGES.includes(pkg)) return 'HTTP framework: Nest, Express, validation, JWT';
    if (pkg.startsWith('@kupa/')) return "Kupa's own code";
    return 'other libraries';
  }
  if (url.includes('/services/api/') || url.includes('/proto/')) return "Kupa's own code";
  if (url.startsWith('node:internal/async_hooks') || url.startsWith('node:async_hooks')) return 'async_hooks';
  if (url.startsWith('node:internal/process/task_queues') || functionName === 'runMicrotasks') return 'V8 microtasks';
  if (url.startsWith('node:_http') || functionName.startsWith('parserOn')) return 'HTTP parsing and answering';
  if (url.startsWith('node:net') || url.startsWith('node:internal/streams') || url.startsWith('node:internal/stream'))
    return 'net and streams';
  if (url.startsWith('node:')) return 'other Node internals';
  // Builtins and native functions without a script: JSON, crypto bindings, string and regexp internals.
  return 'native functions (JSON, crypto, builtins)';
}

/** Self time of every node of a profile, in microseconds: each sample is charged the interval that follows it. */
function selfTimeUs(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  for (let index = 0; index < profile.samples.length; index += 1) {
    const next = profile.timeDeltas[index + 1] ?? 0;
    self.set(profile.samples[index], (self.get(profile.samples[index]) ?? 0) + Math.max(0, next));
  }
  return self;
}

function shortUrl(url: string): string {
  const pkg = packageOf(url);
  if (pkg !== null) return `${pkg}/${url.slice(url.lastIndexOf('/') + 1)}`;
  return url.replace(/^.*\/(services\/api|proto)\//, '$1/').replace(/^file:\/\//, '');
}

/** Sums profiles of the same role into one breakdown. */
export function breakDown(profiles: readonly CpuProfile[]): ProfileBreakdown {
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyUs = 0;
  let idleUs = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    for (const [id, us] of selfTimeUs(profile)) {
      const frame = nodes.get(id)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      if (frame.functionName === '(idle)') {
        idleUs += us;
        continue;
      }
      busyUs += us;
      const category = categoryOf(frame);
      byCategory.set(category, (byCategory.get(category) ?? 0) + us);
      const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}`.trim();
      byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    }
  }
  const share = (us: number): number => round(us / Math.max(1, busyUs), 3);
  return {
    processes: profiles.length,
    busyMs: round(busyUs / 1000, 0),
    idleMs: round(idleUs / 1000, 0),
    categories: [...byCategory]
      .sort((left, right) => right[1] - left[1])
      .map(([category, us]) => ({ category, share: share(us) })),
    topFunctions: [...byFunction]
      .sort((left, right) => right[1] - left[1])
      .slice(0, 20)
      .map(([name, us]) => ({ function: name, share: share(us) })),
  };
}

/** The server's API processes and worker: the processes a profile is taken of (the primary only forwards). */
function profiledPids(serverPid: number): number[] {
  const [, ...children] = nodeTreeOf(serverPid);
  // Without WEB_CONCURRENCY the server is one process that serves and works.
  return children.length > 0 ? children : [serverPid];
}

/**
 * Runs one timed phase under the profiler when BENCH_CPU_PROFILE_DIR is set and the phase has a label (otherwise only
 * the phase) and answers the breakdown by process role. The label names the folder the raw profiles are kept in.
 */
export async function withCpuProfile<T>(
  serverPid: number,
  label: string | null,
  phase: () => Promise<T>,
): Promise<{ result: T; cpuProfile?: Record<string, ProfileBreakdown> }> {
  if (!CPU_PROFILE_DIR || label === null) return { result: await phase() };
  const pids = profiledPids(serverPid);
  const roles = new Map(pids.map((pid) => [pid, processRole(pid)]));
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  const result = await phase();
  for (const pid of pids) process.kill(pid, 'SIGUSR2');
  const roleOf = (pid: number): string => roles.get(pid) ?? 'primary';
  const files = pids.map((pid) => join(CPU_PROFILE_DIR, `${roleOf(pid)}-${pid}.cpuprofile`));
  const deadline = Date.now() + 30_000;
  while (!files.every((file) => existsSync(file)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  const byRole = new Map<string, CpuProfile[]>();
  for (const [index, file] of files.entries()) {
    if (!existsSync(file)) throw new Error(`No CPU profile was written to ${file}`);
    const role = roleOf(pids[index]);
    byRole.set(role, [...(byRole.get(role) ?? []), JSON.parse(readFileSync(file, 'utf8')) as CpuProfile]);
  }
  // Keep the files beside the breakdown, named by the phase, for a closer look in Chromium's DevTools.
  const kept = join(CPU_PROFILE_DIR, label);
  mkdirSync(kept, { recursive: true });
  for (const file of files) renameSync(file, join(kept, file.slice(file.lastIndexOf('/') + 1)));
  return { result, cpuProfile: Object.fromEntries([...byRole].map(([role, list]) => [role, breakDown(list)])) };
}
