#!/usr/bin/env node
// `npm start`: builds whatever is missing or older than its sources, then runs the one Kupa process that serves
// /api, /admin and / (see README). Kept dependency-free so it runs right after `npm ci`.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

const parts = [
  { workspace: '@kupa/proto', sources: ['proto/src'], output: 'proto/dist/index.js' },
  { workspace: '@kupa/api', sources: ['services/api/src', 'proto/src'], output: 'services/api/dist/main.js' },
  { workspace: '@kupa/admin-ui', sources: ['admin-ui/src', 'admin-ui/index.html', 'proto/src'], output: 'admin-ui/dist/index.html' },
  { workspace: '@kupa/client-ui', sources: ['client-ui/src', 'client-ui/index.html', 'proto/src'], output: 'client-ui/dist/index.html' },
];

for (const part of parts) {
  const output = join(root, part.output);
  const sourcesMtimeMs = Math.max(...part.sources.map((source) => newestMtimeMs(join(root, source))));
  if (existsSync(output) && statSync(output).mtimeMs >= sourcesMtimeMs) continue;
  console.log(`Building ${part.workspace}…`);
  const result = spawnSync('npm', ['run', 'build', '-w', part.workspace], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const server = spawn(process.execPath, [join(root, 'services/api/dist/main.js')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
