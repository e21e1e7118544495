import type { Bilingual } from './bilingual';
import { eventText } from './event-text';

export const cardLabel: Bilingual = { he: eventText, en: eventText };
