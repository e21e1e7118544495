#!/usr/bin/env node
// Builds whichever parts are missing or older than their sources. `npm start` and the `kupa` command line call it,
// so a fresh clone works without a separate build step. Kept dependency-free so it runs right after `npm ci`.
// Usage: node scripts/ensure-built.mjs [proto] [api] [admin-ui] [client-ui]   (no names: all of them)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time below a directory, skipping build output and dependencies. */
function newestMtimeMs(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

/** In dependency order: proto first, since every other part compiles against it. */
export const PARTS = [
  { name: 'proto', workspace: '@kupa/proto', sources: ['proto/src'], output: 'proto/dist/index.js' },
  {
    name: 'api',
    workspace: '@kupa/api',
    sources: ['services/api/src', 'proto/src'],
    output: 'services/api/dist/main.js',
  },
  {
    name: 'admin-ui',
    workspace: '@kupa/admin-ui',
    sources: ['admin-ui/src', 'admin-ui/index.html', 'proto/src'],
    output: 'admin-ui/dist/index.html',
  },
  {
    name: 'client-ui',
    workspace: '@kupa/client-ui',
    sources: ['client-ui/src', 'client-ui/index.html', 'proto/src'],
    output: 'client-ui/dist/index.html',
  },
];

/**
 * Builds the named parts (all by default) that are missing or stale. Build output goes to `logTo` (a stream or
 * 'inherit'), so a command whose standard output is data (`kupa … --json`) stays clean. With 'summary' (`npm start`)
 * each build is one line with its time, and its whole output is shown only when it fails: a first run's screen is
 * for the URLs and logins, not for sixty lines of asset sizes (docs/adr/0074-readable-first-run.md). Answers false
 * on a failed build.
 */
export function ensureBuilt(names = PARTS.map((part) => part.name), logTo = 'inherit') {
  for (const part of PARTS.filter((candidate) => names.includes(candidate.name))) {
    const output = join(root, part.output);
    const sourcesMtimeMs = Math.max(...part.sources.map((source) => newestMtimeMs(join(root, source))));
    if (existsSync(output) && statSync(output).mtimeMs >= sourcesMtimeMs) continue;
    const summary = logTo === 'summary';
    const log = logTo === 'inherit' || summary ? process.stdout : logTo;
    log.write(summary ? `Building ${part.workspace}… ` : `Building ${part.workspace}…\n`);
    const startedMs = Date.now();
    const result = spawnSync('npm', ['run', 'build', '-w', part.workspace], {
      cwd: root,
      stdio: summary ? ['ignore', 'pipe', 'pipe'] : ['ignore', logTo, logTo],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (summary) {
      log.write(result.status === 0 ? `done in ${((Date.now() - startedMs) / 1000).toFixed(0)} s\n` : 'failed:\n');
      if (result.status !== 0) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    }
    if (result.status !== 0) return false;
    // tsc leaves an output it would write unchanged untouched; the stamp records that the build is current.
    const now = new Date();
    utimesSync(output, now, now);
  }
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !PARTS.some((part) => part.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown part(s): ${unknown.join(', ')}; known: ${PARTS.map((part) => part.name).join(', ')}`);
    process.exit(2);
  }
  // Build logs go to standard error: callers may read data from standard output.
  process.exit(ensureBuilt(names.length > 0 ? names : undefined, process.stderr) ? 0 : 1);
}
