#!/usr/bin/env node
// Fails the build when the JavaScript a browser must load before a UI's first screen (its entry chunk and every
// chunk that entry imports statically) exceeds a budget, in KiB gzip-compressed as the server sends it
// (docs/adr/0040-console-loads-pages-on-demand.md). Needs the build's manifest (`build.manifest` in Vite).
// Usage: node scripts/bundle-budget.mjs <build directory> <budget KiB>
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';

const [directory, budgetArgument] = process.argv.slice(2);
const budgetKiB = Number(budgetArgument);
if (!directory || !Number.isFinite(budgetKiB) || budgetKiB <= 0) {
  console.error('usage: node scripts/bundle-budget.mjs <build directory> <budget KiB>');
  process.exit(2);
}

const manifest = JSON.parse(readFileSync(join(directory, '.vite', 'manifest.json'), 'utf8'));
const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
const initial = new Set();
const visit = (key) => {
  if (initial.has(key)) return;
  initial.add(key);
  for (const imported of manifest[key].imports ?? []) visit(imported);
};
entries.forEach(visit);

const gzipBytes = (file) =>
  gzipSync(readFileSync(join(directory, file)), { level: constants.Z_BEST_COMPRESSION }).length;
let initialBytes = 0;
for (const key of initial) {
  const chunk = manifest[key];
  initialBytes += gzipBytes(chunk.file);
  for (const css of chunk.css ?? []) initialBytes += gzipBytes(css);
}
const initialKiB = Math.round((initialBytes / 1024) * 10) / 10;
const report = {
  directory,
  initialChunks: initial.size,
  initialGzipKiB: initialKiB,
  budgetKiB,
  within: initialKiB <= budgetKiB,
};
console.log(JSON.stringify(report));
if (!report.within) {
  console.error(
    `The first screen needs ${initialKiB} KiB of gzip-compressed JavaScript, over the budget of ${budgetKiB} KiB.`,
  );
  process.exit(1);
}
