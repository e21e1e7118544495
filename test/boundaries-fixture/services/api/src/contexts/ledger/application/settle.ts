import { cents } from '../domain/money';
import { walletRow } from '../infrastructure/wallet-table';

export const settle = (name: string): string => `${walletRow(name)} ${cents(2)}`;
