export * from './command-pipeline';
