/**
 * The Kafka specs (`*.kafka-spec.ts`): the API's jest setup, against the real broker that scripts/test-kafka.sh
 * starts (`npm run test:kafka`). Kept out of the default run, which has no broker.
 */
const base = require('./jest.config.js');

module.exports = { ...base, testRegex: '.*\\.kafka-spec\\.ts$', testTimeout: 300000 };
