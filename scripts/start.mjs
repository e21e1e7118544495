#!/usr/bin/env node
// `npm start`: builds whatever is missing or older than its sources, then runs the one Kupa process that serves
// /api, /admin and / (see README). `npm run worker` (`start.mjs worker`) runs the processors and the mail dispatcher
// without HTTP instead. Kept dependency-free so it runs right after `npm ci`.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const worker = process.argv[2] === 'worker';
if (!ensureBuilt(worker ? ['proto', 'api'] : undefined)) process.exit(1);

const entry = worker ? 'services/api/dist/worker.js' : 'services/api/dist/main.js';
const server = spawn(process.execPath, [join(root, entry)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
