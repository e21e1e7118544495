#!/usr/bin/env node
// Proves that scripts/check-doc-links.mjs still bites: runs it over test/doc-links-fixture, a miniature repository
// with one deliberate breach of each kind (a missing file, a missing heading in another file and in the same one, a
// cited ADR number and an ADR path that do not exist, in a document and in code, a record with another header and
// no row in the index) beside references that resolve, and
// fails unless it reports exactly those breaches. A check that stops catching one, or starts refusing a good
// reference, breaks `npm run lint`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failUnlessExactly } from './fixture-breaches.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const EXPECTED = [
  'README.md:13: link to docs/missing.md, which does not exist',
  'README.md:13: link to docs/adr/0001-first-record.md#context, a heading that does not exist',
  'README.md:14: link to #nowhere, a heading that does not exist',
  'README.md:14: cites ADR 0032, which does not exist',
  'README.md:14: names docs/adr/0002-second-record.md, which does not exist',
  'src/retries.ts:1: cites ADR 0033, which does not exist',
  'docs/adr/0003-old-header.md:1: does not open with "# 0003 — Title", a blank line and "Status: …"',
  'docs/adr/0003-old-header.md:1: has no row in docs/adr/README.md',
];

const run = spawnSync(
  process.execPath,
  [path.join(root, 'scripts', 'check-doc-links.mjs'), path.join(root, 'test', 'doc-links-fixture')],
  { encoding: 'utf8' },
);
const found = run.stderr.split('\n').filter((line) => /^\S+:\d+: /.test(line));

failUnlessExactly(
  `The docs check no longer reports exactly the breaches of test/doc-links-fixture (exit ${run.status}):`,
  EXPECTED,
  found,
  run.status !== 1 ? [run.stdout + run.stderr] : [],
);
console.log(`Docs check: all ${EXPECTED.length} breaches of test/doc-links-fixture reported.`);
