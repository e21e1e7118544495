// The deliberate breaches: an adapter that reaches up into a use case and into a flow.
import { settle } from '../application/settle';
import { transfer } from '../commands/transfer';
import { walletRow } from './wallet-table';

export const walletJob = (name: string): string => settle(name) + transfer(name) + walletRow(name);
