import type { Language } from '@kupa/proto';

/**
 * What the bot says about linking, in Hebrew and English (docs/product.md, Telegram). Never a password, never a token.
 * The answers to a linked person's commands (`/help`, `/balance`, …) are `telegram-bot-answers.ts`.
 */
export const TELEGRAM_BOT_TEXTS = Object.freeze({
  linked: {
    he: 'חשבון הטלגרם קושר ל-Kupa. מעכשיו אפשר לקבל כאן הודעות. לעזרה: /help',
    en: 'Your Telegram is now linked to Kupa. Notices can reach you here. For help: /help',
  },
  tokenUnknown: {
    he: 'הקישור לא מוכר. פתחו את הפרופיל בפורטל ובקשו קישור חדש: {portal}',
    en: 'This link is not one we know. Open your profile in the portal and ask for a new one: {portal}',
  },
  tokenExpired: {
    he: 'תוקף הקישור פג. בקשו קישור חדש בפרופיל בפורטל: {portal}',
    en: 'This link has expired. Ask for a new one in your profile in the portal: {portal}',
  },
  tokenUsed: {
    he: 'הקישור כבר נוצל. בקשו קישור חדש בפרופיל בפורטל: {portal}',
    en: 'This link was already used. Ask for a new one in your profile in the portal: {portal}',
  },
  notLinked: {
    he: 'הצ׳אט הזה לא מקושר לחשבון. כדי לקשר, פתחו את הפרופיל בפורטל ולחצו על "קישור טלגרם": {portal}',
    en: 'This chat is not linked to an account. To link it, open your profile in the portal and press "Link Telegram": {portal}',
  },
  unlinked: {
    he: 'חשבון הטלגרם נותק מ-Kupa. לא יישלחו לכאן עוד הודעות.',
    en: 'Your Telegram is unlinked from Kupa. No more notices will be sent here.',
  },
  other: {
    he: 'את זה עושים בפורטל: {portal}. לעזרה: /help',
    en: 'That is done in the portal: {portal}. For help: /help',
  },
  groupsNotSupported: {
    he: 'אפשר לקשר רק בצ׳אט פרטי עם הבוט.',
    en: 'Linking works only in a private chat with the bot.',
  },
} as const);

export type TelegramBotText = keyof typeof TELEGRAM_BOT_TEXTS;

export function telegramBotText(key: TelegramBotText, language: Language, params: Record<string, string> = {}): string {
  return TELEGRAM_BOT_TEXTS[key][language].replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}

/** A chat nobody linked speaks the language Telegram reports for its user: Hebrew for `he`/`iw`, else English. */
export function languageOfTelegramUser(languageCode: string | undefined): Language {
  return languageCode?.startsWith('he') || languageCode?.startsWith('iw') ? 'he' : 'en';
}
