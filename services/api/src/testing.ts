/**
 * What `@kupa/api` exports to the repository's other suites (`"exports": {"./testing": …}` in package.json): the
 * browser journeys and the bench under test/ drive the API from outside and import this file only, never a path
 * inside services/api/src (`.dependency-cruiser.cjs`, ADR 0013). It is test support, not part of the server's build.
 *
 * - `Mailbox`: the real SMTP server the journeys read the e-mailed links from;
 * - the wallet and payment deciders, the ledger's event schema versions and the store's `chainHash`: the bench seeds a
 *   large ledger with the very rules, versions and hashes the API applies, so that `kupa ledger verify` passes over
 *   the result;
 * - `openBuiltApi`: an application context of the built API on a running server's database with a hand-moved clock,
 *   in which the bench runs the renewal sweep at an instant of its choosing (it loads Nest only when called);
 * - `openEmbeddedDatabase`: the embedded PostgreSQL on a data directory, run by a process of its own in the crash test,
 *   which kills it and starts it again under the API and worker processes;
 * - `Metrics`: the Prometheus registry API processes and workers serve, whose names the alert rules and the dashboard
 *   in deploy/ may use (test/deploy/observability.test.ts).
 */
export { Mailbox, type ReceivedMail } from './test-support/mailbox';
export { openEmbeddedDatabase } from './platform/database/embedded-database';
export { openBuiltApi, type BuiltApi, type BuiltApiOptions } from './test-support/built-api';
export { chainHash } from './platform/event-store/event-hash';
export { Metrics } from './platform/observability/metrics';
// The pure domain, not the ledger's index: the bench must not load Nest, TypeORM and the rest of the ledger module.
export { paymentDecider } from './contexts/ledger/domain/payment.decider';
export { walletDecider } from './contexts/ledger/domain/wallet.decider';
export { LEDGER_EVENT_SCHEMAS } from './contexts/ledger/domain/ledger-event-schemas';
export type { WalletState } from './contexts/ledger/domain/wallet.state';
