import { transfer } from './contexts/ledger/commands/transfer';
import { wallet } from './contexts/ledger/domain/wallet';

export const testing = (): string => wallet() + transfer('testing');
