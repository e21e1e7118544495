export * from './enums';
export * from './errors';
export * from './limits';
export * from './money';
export * from './validation';
export * from './payloads';
export * from './labels';
export * from './events';
