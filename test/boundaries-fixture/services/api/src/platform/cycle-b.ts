import { a } from './cycle-a';

export const b = (): string => `b${a.name}`;
