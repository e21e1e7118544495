/**
 * API tests run TypeScript through SWC (decorator metadata included) and share one PostgreSQL started by the
 * global setup: the embedded server, or the one named by DATABASE_URL.
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

module.exports = {
  rootDir: 'src',
  testEnvironment: 'node',
  testRegex: '.*\\.(spec|int-spec|api-spec)\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test-support/global-setup.ts',
  globalTeardown: '<rootDir>/test-support/global-teardown.ts',
  testTimeout: 60000,
};
