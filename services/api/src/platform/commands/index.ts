export * from './command-batches';
export * from './command-pipeline';
