#!/usr/bin/env node
// What `npm test` needs beyond `npm ci`, checked before anything else runs (docs/adr/0074-readable-first-run.md):
// Debian's `chromium` for the browser journeys, `nginx-light` for the deploy checks, `poppler-utils` for the receipt
// PDF specs and `postgresql-15` for the read replica's spec (a primary and its standby from its server binaries). Where it may, it installs them
// with apt-get (as root, with apt-get present, on CI or when asked with KUPA_INSTALL_PREREQUISITES=1); otherwise it
// stops at once with one line naming what is missing and the command that installs it. `.ci/run` calls it too, so
// the list lives here only. Java and Maven are for `npm run test:kafka` alone and are not checked here.
// Usage: node scripts/test-prerequisites.mjs [chromium] [nginx-light] [poppler-utils] [postgresql-15]   (no names: all)
// Kept dependency-free: it runs before `npm ci` on CI.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Each package, what needs it, and where the suite looks for its program (the same places the tests look). */
export function prerequisites(env = process.env) {
  return [
    {
      name: 'chromium',
      neededBy: 'the browser journeys',
      paths: [env.CHROMIUM_PATH || '/usr/bin/chromium'],
    },
    {
      name: 'nginx-light',
      neededBy: 'the deploy checks',
      paths: env.NGINX_PATH ? [env.NGINX_PATH] : ['/usr/sbin/nginx', '/usr/bin/nginx'],
    },
    {
      // pdftotext and pdftoppm: the receipt specs read and draw the PDFs as a person would (ADR 0097).
      name: 'poppler-utils',
      neededBy: 'the receipt PDF specs',
      paths: [env.PDFTOTEXT_PATH || '/usr/bin/pdftotext'],
    },
    {
      // initdb, pg_ctl and pg_basebackup: the read replica's spec starts a primary and a streaming standby (ADR 0113).
      name: 'postgresql-15',
      neededBy: "the read replica's spec",
      paths: [join(env.KUPA_PG15_BIN || '/usr/lib/postgresql/15/bin', 'pg_basebackup')],
    },
  ];
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether `program` is on `PATH`. */
export function onPath(program, path = process.env.PATH ?? '') {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((directory) => executable(join(directory, program)));
}

/**
 * What to do, from the facts alone: nothing, install the missing packages, or fail with one line. Installing changes
 * the machine, so it happens only where that is expected: on CI (`CI`) or when asked (`KUPA_INSTALL_PREREQUISITES=1`),
 * and only as root with apt-get; a developer's machine is never changed behind their back.
 */
export function decide({ missing, isRoot, hasAptGet, ci, optIn }) {
  if (missing.length === 0) return { action: 'none' };
  const names = missing.map((item) => item.name);
  const command = `${isRoot ? '' : 'sudo '}apt-get install -y ${names.join(' ')}`;
  if ((ci || optIn) && isRoot && hasAptGet) return { action: 'install', packages: names };
  const what = missing.map((item) => `${item.name} (for ${item.neededBy})`).join(' and ');
  const why = !hasAptGet
    ? ' (apt-get is not on this machine: install the same packages with its package manager)'
    : (ci || optIn) && !isRoot
      ? ' (not root, so npm test cannot install it itself)'
      : '';
  return { action: 'fail', message: `npm test needs Debian's ${what}, not installed: run \`${command}\`${why}` };
}

function truthy(value) {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

function main(argv, env) {
  const known = prerequisites(env);
  const asked = argv.length > 0 ? argv : known.map((item) => item.name);
  const unknown = asked.filter((name) => !known.some((item) => item.name === name));
  if (unknown.length > 0) {
    console.error(
      `Unknown prerequisite(s): ${unknown.join(', ')}; known: ${known.map((item) => item.name).join(', ')}`,
    );
    return 2;
  }
  const missing = known.filter((item) => asked.includes(item.name) && !item.paths.some(executable));
  const decision = decide({
    missing,
    isRoot: process.getuid?.() === 0,
    hasAptGet: onPath('apt-get', env.PATH),
    ci: truthy(env.CI),
    optIn: truthy(env.KUPA_INSTALL_PREREQUISITES),
  });
  if (decision.action === 'none') return 0;
  if (decision.action === 'fail') {
    console.error(decision.message);
    return 1;
  }
  console.log(`Installing Debian's ${decision.packages.join(' and ')} for npm test`);
  const quiet = { stdio: ['ignore', 'ignore', 'inherit'], env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...decision.packages],
  ]) {
    const result = spawnSync('apt-get', args, quiet);
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
      return 1;
    }
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2), process.env));
