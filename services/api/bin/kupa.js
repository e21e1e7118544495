#!/usr/bin/env node
// The `kupa` command line: operations beside a running server (see `npx kupa --help`).
require('../dist/cli.js');
