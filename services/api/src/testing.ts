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
 *   in deploy/ may use (test/deploy/observability.test.ts);
 * - `FakeTelegram`: the local stand-in for Telegram's Bot API: the bench's Telegram scenario sends a broadcast through
 *   it, enforcing Telegram's limits (`maxPerChatPerSecond` over what it took), and a journey points the built server at
 *   it to link a chat through the bot as a person would (test/e2e/notification-settings.e2e.ts);
 * - `loadConfig`: the server's reading of its environment, which the Kubernetes pods' ConfigMap and variables must
 *   pass (test/deploy/k8s.test.ts).
 */
export { Mailbox, type ReceivedMail } from './test-support/mailbox';
export { openEmbeddedDatabase } from './platform/database/embedded-database';
export { openBuiltApi, type BuiltApi, type BuiltApiOptions } from './test-support/built-api';
export { chainHash } from './platform/event-store/event-hash';
export { Metrics } from './platform/observability/metrics';
export { loadConfig } from './platform/config';
export { FakeTelegram, maxPerChatPerSecond } from './test-support/fake-telegram';
// The pure domain, not the ledger's index: the bench must not load Nest, TypeORM and the rest of the ledger module.
export { paymentDecider } from './contexts/ledger/domain/payment.decider';
export { walletDecider } from './contexts/ledger/domain/wallet.decider';
export { LEDGER_EVENT_SCHEMAS } from './contexts/ledger/domain/ledger-event-schemas';
export type { WalletState } from './contexts/ledger/domain/wallet.state';
