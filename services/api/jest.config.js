/**
 * API tests run TypeScript through SWC (decorator metadata included), in two Jest projects:
 * - `unit`: the `*.spec.ts` files — deciders, domain rules and pure helpers. No PostgreSQL is started for them, and
 *   `test-support/no-database.ts` fails any of them that tries to open one (rename such a spec `*.int-spec.ts`).
 * - `database`: the `*.int-spec.ts` and `*.api-spec.ts` files, which share one PostgreSQL started by the global
 *   setup: the embedded server, or the one named by DATABASE_URL.
 * `jest` runs both; `npm run test:unit` and `npm run test:database` run one each.
 */
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

/**
 * otplib's base32 and hash dependencies (@scure/base, @noble/hashes 2) and @nestjs/terminus 12 ship ES modules only.
 * Node ≥ 20.19 loads them from CommonJS by itself, but Jest's module loader does not before Node 24.9, so Jest
 * compiles those packages to CommonJS with SWC too.
 */
const esmOnlyPackages = ['@scure/base', '@noble/hashes', '@nestjs/terminus'];

const shared = {
  rootDir: 'src',
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcOptions],
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // Ignored: everything under node_modules except those packages, wherever npm nested them.
  transformIgnorePatterns: [`^(?!.*/node_modules/(${esmOnlyPackages.join('|')})/).*/node_modules/`],
  moduleFileExtensions: ['ts', 'js', 'json'],
};

const unit = {
  ...shared,
  displayName: 'unit',
  testRegex: '.*\\.spec\\.ts$',
  setupFiles: ['<rootDir>/test-support/no-database.ts'],
};

const database = {
  ...shared,
  displayName: 'database',
  testRegex: '.*\\.(int-spec|api-spec)\\.ts$',
  globalSetup: '<rootDir>/test-support/global-setup.ts',
  globalTeardown: '<rootDir>/test-support/global-teardown.ts',
};

// A global option: Jest ignores `testTimeout` inside a project's own config.
module.exports = { testTimeout: 60000, projects: [unit, database] };
