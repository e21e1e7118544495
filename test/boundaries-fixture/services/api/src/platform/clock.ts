import { transfer } from '../contexts/ledger';

export const now = (): string => transfer('clock');
