#!/usr/bin/env node
// Proves that the boundary rules still bite (ADR 0013): runs dependency-cruiser with the repository's own
// .dependency-cruiser.cjs over test/boundaries-fixture, a miniature of the layout with one deliberate breach of each
// rule beside imports the rules allow, and fails unless it reports exactly the breaches below. A rule whose pattern
// stops matching (a renamed folder, a broken regex) or that starts flagging an allowed import breaks `npm run lint`,
// and so does a new rule without a breach here to prove it.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failUnlessExactly } from './fixture-breaches.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = path.join(root, 'test', 'boundaries-fixture');
const configPath = path.join(root, '.dependency-cruiser.cjs');
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise');

/** Every breach the fixture holds on purpose: rule, importing file, imported module. */
const EXPECTED = [
  // The "done when" of the boundaries issue: a cross-context deep import fails the lint.
  [
    'context-through-index',
    'services/api/src/contexts/ledger/commands/transfer.ts',
    'services/api/src/contexts/identity/infrastructure/secrets.ts',
  ],
  ['app-through-index', 'services/api/src/app.module.ts', 'services/api/src/contexts/ledger/commands/transfer.ts'],
  [
    'public-entry-through-index-or-domain',
    'services/api/src/testing.ts',
    'services/api/src/contexts/ledger/commands/transfer.ts',
  ],
  ['domain-is-pure', 'services/api/src/contexts/ledger/domain/wallet.ts', 'services/api/src/platform/clock.ts'],
  ['domain-is-pure', 'services/api/src/contexts/ledger/domain/wallet.ts', 'crypto'],
  [
    'infrastructure-is-adapters',
    'services/api/src/contexts/ledger/infrastructure/wallet-job.ts',
    'services/api/src/contexts/ledger/application/settle.ts',
  ],
  [
    'infrastructure-is-adapters',
    'services/api/src/contexts/ledger/infrastructure/wallet-job.ts',
    'services/api/src/contexts/ledger/commands/transfer.ts',
  ],
  ['platform-knows-no-context', 'services/api/src/platform/clock.ts', 'services/api/src/contexts/ledger/index.ts'],
  ['kernel-is-pure', 'services/api/src/kernel/index.ts', 'services/api/src/platform/clock.ts'],
  ['admin-ui-alone', 'admin-ui/src/app.ts', 'services/api/src/kernel/index.ts'],
  ['admin-ui-alone', 'admin-ui/src/app.ts', 'client-ui/src/theme.ts'],
  ['client-ui-alone', 'client-ui/src/staff-link.ts', 'admin-ui/src/app.ts'],
  ['test-uses-public-api', 'test/bench/seed.ts', 'services/api/src/kernel/index.ts'],
  ['test-through-package-name', 'test/bench/seed.ts', 'services/api/src/kernel/index.ts'],
  ['test-through-package-name', 'test/bench/seed.ts', 'services/api/src/testing.ts'],
  ['no-circular', 'services/api/src/platform/cycle-a.ts', 'services/api/src/platform/cycle-b.ts'],
  ['proto-no-circular', 'proto/src/card.ts', 'proto/src/event-text.ts'],
  [
    'client-ui-subscriptions-not-packages',
    'client-ui/src/features/subscriptions/renew.ts',
    'client-ui/src/features/packages/plan-price.ts',
  ],
  ['client-ui-lib-below-features', 'client-ui/src/lib/plans.ts', 'client-ui/src/features/packages/plan-price.ts'],
].map((breach) => breach.join(' | '));

function run() {
  try {
    return execFileSync(
      depcruise,
      ['--config', configPath, '--output-type', 'json', 'proto', 'services', 'admin-ui', 'client-ui', 'test'],
      { cwd: fixture, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (error) {
    // depcruise exits with the number of errors it found; the fixture is meant to have some.
    if (typeof error.stdout === 'string' && error.stdout.trim().startsWith('{')) return error.stdout;
    throw error;
  }
}

const result = JSON.parse(run());
const found = result.summary.violations.map((violation) =>
  [violation.rule.name, violation.from, violation.to].join(' | '),
);
const rules = createRequire(import.meta.url)(configPath).forbidden.map((rule) => rule.name);
const unproven = rules.filter((rule) => !EXPECTED.some((breach) => breach.startsWith(`${rule} |`)));

failUnlessExactly(
  'The boundary rules no longer report exactly the breaches of test/boundaries-fixture:',
  EXPECTED,
  found,
  unproven.map((rule) => `  rule without a breach in the fixture: ${rule}`),
);
console.log(`Boundary rules: all ${rules.length} report their breaches in test/boundaries-fixture.`);
