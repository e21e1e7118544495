export { transfer } from './commands/transfer';
