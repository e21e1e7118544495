/**
 * The Kafka specs (`*.kafka-spec.ts`): the API's database project, against the real broker that
 * scripts/test-kafka.sh starts (`npm run test:kafka`). Kept out of the default run, which has no broker.
 */
const database = require('./jest.config.js').projects.find((project) => project.displayName === 'database');

module.exports = { ...database, displayName: 'kafka', testRegex: '.*\\.kafka-spec\\.ts$', testTimeout: 300000 };
