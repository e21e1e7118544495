import type { Bilingual } from './bilingual';
import { cardLabel } from './card';

export const eventText = 'card';
export const labels: Bilingual[] = [cardLabel];
