/**
 * Loaded with `--require` into a built server's processes (`NODE_OPTIONS`), after `group-commit.ts --preload` bundled
 * it to CommonJS: installs the group-commit prototype (`group-commit-prototype.ts`) in the server of the checkout
 * named by `KUPA_BENCH_GROUP_COMMIT_ROOT`, and in no other. `transfer-cpu.ts` starts both checkouts' servers with the
 * same environment, so the other build loads this too and is left as it is.
 *
 * `KUPA_BENCH_GROUP_MODE` (`merged`), `KUPA_BENCH_GROUP_K` (16) and `KUPA_BENCH_GROUP_IN_FLIGHT` (1) choose the
 * prototype's mode, its largest batch and its batches in their transactions at once; batches form adaptively.
 */
import { createRequire } from 'node:module';
import { join, resolve, sep } from 'node:path';
import { type GroupMode, installFromBuild } from './group-commit-prototype.ts';

const root = process.env.KUPA_BENCH_GROUP_COMMIT_ROOT;
const entry = process.argv[1];
if (root && entry && resolve(entry).startsWith(join(resolve(root), 'services', 'api', 'dist') + sep)) {
  const apiRoot = join(resolve(root), 'services', 'api');
  const load = createRequire(join(apiRoot, 'package.json'));
  // Before any decorated class of the build is evaluated, as its own entry does: the decorators record
  // constructor parameters only when `Reflect.metadata` exists.
  load('reflect-metadata');
  installFromBuild((path) => load(join(apiRoot, 'dist', path)), {
    mode: (process.env.KUPA_BENCH_GROUP_MODE ?? 'merged') as GroupMode,
    policy: 'adaptive',
    k: Number(process.env.KUPA_BENCH_GROUP_K ?? 16),
    maxInFlight: Number(process.env.KUPA_BENCH_GROUP_IN_FLIGHT ?? 1),
    batchSizes: [],
    fallbacks: 0,
  });
}
