import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';

/**
 * scripts/test-prerequisites.mjs, which `npm test` runs first (docs/adr/0074-readable-first-run.md): on a machine
 * without Debian's chromium, nginx-light or poppler-utils it either installs them (root, apt-get, CI or asked) or stops at once with
 * one line naming what is missing and the command that installs it.
 */
const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'test-prerequisites.mjs');

interface Missing {
  name: string;
  neededBy: string;
}
interface Facts {
  missing: Missing[];
  isRoot: boolean;
  hasAptGet: boolean;
  ci: boolean;
  optIn: boolean;
}
type Decision = { action: 'none' } | { action: 'install'; packages: string[] } | { action: 'fail'; message: string };

const { decide } = (await import(pathToFileURL(SCRIPT).href)) as { decide: (facts: Facts) => Decision };

const work = mkdtempSync(join(tmpdir(), 'kupa-prerequisites-'));
/** A PATH with no apt-get, no nginx and no chromium on it. */
const emptyPath = join(work, 'bin');
const fakeNginx = join(work, 'nginx');
writeFileSync(fakeNginx, '#!/bin/sh\nexit 0\n');
chmodSync(fakeNginx, 0o755);

function run(args: string[], env: Record<string, string>) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [SCRIPT, ...args], {
    encoding: 'utf8',
    // Nothing of this machine's environment: no CI, no opt-in, and programs only where each case says.
    env: {
      PATH: emptyPath,
      CHROMIUM_PATH: join(work, 'no-chromium'),
      NGINX_PATH: join(work, 'no-nginx'),
      PDFTOTEXT_PATH: join(work, 'no-pdftotext'),
      KUPA_PG15_BIN: join(work, 'no-postgresql-15'),
      ...env,
    },
    timeout: 10_000,
  });
  return { ...result, elapsedMs: Date.now() - started };
}

after(() => rmSync(work, { recursive: true, force: true }));

describe('npm test on a machine without its prerequisites', () => {
  it('stops at once with one line naming each missing package and the command to install it', () => {
    const result = run([], {});
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', /chromium \(for the browser journeys\)/);
    assert.match(lines[0] ?? '', /nginx-light \(for the deploy checks\)/);
    assert.match(lines[0] ?? '', /poppler-utils \(for the receipt PDF specs\)/);
    assert.match(lines[0] ?? '', /postgresql-15 \(for the read replica's spec\)/);
    assert.match(lines[0] ?? '', /apt-get install -y chromium nginx-light poppler-utils postgresql-15/);
    assert.ok(result.elapsedMs < 5_000, `took ${result.elapsedMs} ms`);
  });

  it('checks only what a part of the suite needs, and is silent when it is there', () => {
    const result = run(['nginx-light'], { NGINX_PATH: fakeNginx });
    assert.deepEqual(
      { status: result.status, stdout: result.stdout, stderr: result.stderr },
      {
        status: 0,
        stdout: '',
        stderr: '',
      },
    );
  });

  it('asked to install but without apt-get on the PATH, says so instead of trying', () => {
    const result = run(['nginx-light'], { KUPA_INSTALL_PREREQUISITES: '1' });
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /^npm test needs Debian's nginx-light \(for the deploy checks\), not installed: run `(sudo )?apt-get install -y nginx-light` \(apt-get is not on this machine/,
    );
  });

  it('refuses a name it does not know', () => {
    const result = run(['java'], {});
    assert.equal(result.status, 2);
    assert.match(
      result.stderr,
      /Unknown prerequisite\(s\): java; known: chromium, nginx-light, poppler-utils, postgresql-15/,
    );
  });
});

describe('whether it installs', () => {
  const nginx: Missing = { name: 'nginx-light', neededBy: 'the deploy checks' };
  const facts: Facts = { missing: [nginx], isRoot: true, hasAptGet: true, ci: true, optIn: false };

  it('installs on CI, or when asked, as root with apt-get', () => {
    assert.deepEqual(decide(facts), { action: 'install', packages: ['nginx-light'] });
    assert.deepEqual(decide({ ...facts, ci: false, optIn: true }), { action: 'install', packages: ['nginx-light'] });
  });

  it("never changes a developer's machine unasked, even as root", () => {
    const decision = decide({ ...facts, ci: false });
    assert.equal(decision.action, 'fail');
    assert.match((decision as { message: string }).message, /run `apt-get install -y nginx-light`$/);
  });

  it('without root, names the command with sudo and says why it did not install', () => {
    const decision = decide({ ...facts, isRoot: false });
    assert.equal(decision.action, 'fail');
    assert.match((decision as { message: string }).message, /run `sudo apt-get install -y nginx-light` \(not root/);
  });

  it('does nothing when nothing is missing', () => {
    assert.deepEqual(decide({ ...facts, missing: [] }), { action: 'none' });
  });
});
