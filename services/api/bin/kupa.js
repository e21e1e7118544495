#!/usr/bin/env node
// The `kupa` command line: operations beside a running server (see `npx kupa --help`). On a fresh clone, or after
// a change to the sources, it first builds the API (build logs on standard error, so `--json` output stays clean).
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const ensureBuilt = join(__dirname, '..', '..', '..', 'scripts', 'ensure-built.mjs');
const built = spawnSync(process.execPath, [ensureBuilt, 'proto', 'api'], { stdio: ['ignore', 2, 2] });
if (built.status !== 0) process.exit(built.status ?? 1);
require('../dist/cli.js');
