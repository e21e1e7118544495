import type { Language } from './enums';

/**
 * A text in both of the portal's languages. Its own small module because the label tables of `card.ts`,
 * `cashier.ts` and `payments-csv.ts` need it, and importing it from `event-text.ts` (which names every event type)
 * closed an import cycle through the event catalogue back to those tables.
 */
export type Bilingual = Readonly<Record<Language, string>>;
