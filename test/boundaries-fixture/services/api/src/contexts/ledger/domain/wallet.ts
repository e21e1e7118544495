import { randomUUID } from 'node:crypto';
import { kernelName } from '../../../kernel';
import { now } from '../../../platform/clock';
import { cents } from './money';

export const wallet = (): string => `${kernelName} ${cents(1)} ${now()} ${randomUUID()}`;
