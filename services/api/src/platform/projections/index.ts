export * from './inline-projection.registry';
export * from './processor-runner';
export * from './read-model-replay-check';
export * from './processor-lag';
