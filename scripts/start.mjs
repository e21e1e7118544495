#!/usr/bin/env node
// `npm start`: builds whatever is missing or older than its sources, then runs Kupa. By default one process serves
// /api, /admin and / and runs the background work (see README, Processes); `KUPA_ROLE=api|worker|all` picks what it
// runs, and `WEB_CONCURRENCY=N` makes it a primary forking N API processes and one worker (node:cluster, in the
// server's entry point). `npm run worker` (`start.mjs worker`) runs only the background work, without HTTP.
// Kept dependency-free so it runs right after `npm ci`.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROLES = ['api', 'worker', 'all'];

const role = process.env.KUPA_ROLE?.trim() || 'all';
if (!ROLES.includes(role)) {
  console.error(`KUPA_ROLE must be one of ${ROLES.join(', ')} (or unset, for all), got ${role}`);
  process.exit(1);
}
const worker = process.argv[2] === 'worker' || role === 'worker';
if (!ensureBuilt(worker ? ['proto', 'api'] : undefined, 'summary')) process.exit(1);

const entry = worker ? 'services/api/dist/worker.js' : 'services/api/dist/main.js';
const server = spawn(process.execPath, [join(root, entry)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
