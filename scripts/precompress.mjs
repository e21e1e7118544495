#!/usr/bin/env node
// Writes a Brotli (.br) and a gzip (.gz) twin beside every text file of a UI build that compression makes smaller,
// so the server can send them as they are instead of compressing on every request (docs/adr/0038-static-assets.md).
// Usage: node scripts/precompress.mjs <build directory>
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map', '.webmanifest']);
/** Below this, the headers a compressed answer adds cost about what it saves. */
const SIZE_MIN_BYTES = 1024;

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/precompress.mjs <build directory>');
  process.exit(2);
}

let files = 0;
let bytesBefore = 0;
let bytesAfterBrotli = 0;
function walk(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      // Vite's own files (.vite/manifest.json) are read at build time, never served.
      if (name.startsWith('.')) continue;
      walk(path);
      continue;
    }
    // index.html is never pre-compressed: the server answers every client route with it, uncompressed.
    if (!COMPRESSIBLE.has(extname(name)) || name === 'index.html' || stat.size < SIZE_MIN_BYTES) continue;
    const content = readFileSync(path);
    const brotli = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    const gzip = gzipSync(content, { level: constants.Z_BEST_COMPRESSION });
    if (brotli.length < content.length) writeFileSync(`${path}.br`, brotli);
    if (gzip.length < content.length) writeFileSync(`${path}.gz`, gzip);
    files += 1;
    bytesBefore += content.length;
    bytesAfterBrotli += Math.min(brotli.length, content.length);
  }
}
walk(root);
console.log(
  `precompress: ${files} files in ${root}, ${Math.round(bytesBefore / 1024)} KiB → ${Math.round(bytesAfterBrotli / 1024)} KiB with Brotli`,
);
