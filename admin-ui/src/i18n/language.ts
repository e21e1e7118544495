import { DEFAULT_LANGUAGE, isOneOf, LANGUAGES, type Language } from '@kupa/proto';

/** The localStorage key of the chosen language; the client app reads the same key, so the choice follows the user. */
export const LANGUAGE_STORAGE_KEY = 'lang';

/**
 * Reads the stored language. Both apps share the key: the client app persists `{"state":{"lang":"he"},"version":0}`
 * (its store's format) and the console writes the same shape. A bare or JSON-quoted code is accepted too, so a
 * hand-edited value never breaks the console.
 */
export function readLanguage(storage: Pick<Storage, 'getItem'> = window.localStorage): Language {
  const raw = safeGet(storage, LANGUAGE_STORAGE_KEY);
  if (raw === null) return DEFAULT_LANGUAGE;
  if (isOneOf(LANGUAGES, raw)) return raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isOneOf(LANGUAGES, parsed)) return parsed;
    const nested = findLang(parsed);
    if (nested) return nested;
  } catch {
    // A value that is neither a code nor JSON is ignored in favour of the default.
  }
  return DEFAULT_LANGUAGE;
}

function findLang(value: unknown): Language | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (isOneOf(LANGUAGES, record.lang)) return record.lang;
  return findLang(record.state);
}

function safeGet(storage: Pick<Storage, 'getItem'>, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    // Storage can be unavailable (private mode, blocked cookies); the default language still works.
    return null;
  }
}

/** Stores the language in the client app's persisted-store shape, so the choice carries over between the apps. */
export function writeLanguage(lang: Language, storage: Pick<Storage, 'setItem'> = window.localStorage): void {
  try {
    storage.setItem(LANGUAGE_STORAGE_KEY, JSON.stringify({ state: { lang }, version: 0 }));
  } catch {
    // Without storage the reload falls back to the default language; nothing else can be done.
  }
}

export function directionOf(lang: Language): 'rtl' | 'ltr' {
  return lang === 'he' ? 'rtl' : 'ltr';
}

/** Puts the language and direction on `<html>`, which dialogs, menus and popovers rendered outside the root inherit. */
export function applyDocumentLanguage(lang: Language, doc: Document = document): void {
  doc.documentElement.lang = lang;
  doc.documentElement.dir = directionOf(lang);
}

/**
 * Stores a new language and reloads. A reload (rather than switching in place) is what the product asks for
 * (docs/product.md, Screens), and it lets the Emotion cache, the MUI theme direction and every formatted value start
 * over in the new direction.
 */
export function switchLanguage(lang: Language): void {
  writeLanguage(lang);
  applyDocumentLanguage(lang);
  window.location.reload();
}

/**
 * The language of the page. It is read from storage on each call (a cheap lookup) because a switch always reloads,
 * so the stored value and the rendered page never disagree.
 */
export function currentLang(): Language {
  return readLanguage();
}
