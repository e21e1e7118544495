import { cents } from '../domain/money';

export const walletRow = (name: string): string => `${name} ${cents(3)}`;
