export * from './errors';
export * from './event-hash';
export * from './event-store.module';
export * from './event-store.port';
export * from './event-type-registry';
export * from './hash-chain-verifier';
export * from './postgres-event-store';
export { compareStreamIds } from './event-rows';
export * from './rebuild-memory';
