import { now } from '../../../platform/clock';
import { wallet } from './wallet';

export const specified = (): string => `${wallet()} at ${now()}`;
