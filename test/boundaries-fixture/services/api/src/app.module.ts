import { transfer } from './contexts/ledger';
import { transfer as deepTransfer } from './contexts/ledger/commands/transfer';

export const app = (): string => transfer('app') + deepTransfer('app');
