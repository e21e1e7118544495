export type Bilingual = { he: string; en: string };
