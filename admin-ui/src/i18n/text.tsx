import { DEFAULT_LANGUAGE, type Language } from '@kupa/proto';
import { createContext, useContext } from 'react';

export type Translate = (key: string, params?: Readonly<Record<string, unknown>>) => string;

/** The page language and its catalogue's lookup, for the screens that must work without react-admin. */
export interface Text {
  lang: Language;
  translate: Translate;
}

/** A nested catalogue, as react-admin's `TranslationMessages` are. */
export interface Messages {
  readonly [key: string]: string | Messages | undefined;
}

/**
 * Looks a dotted key up in one language's catalogue and fills its `%{name}` placeholders, as react-admin's polyglot
 * provider does, so the sign-in screen (which loads before react-admin) and the console read the same texts. A
 * missing key answers itself, like the console's provider with `allowMissing`.
 */
export function createTranslate(messages: Messages): Translate {
  return (key, params = {}) => {
    let found: string | Messages | undefined = messages;
    for (const part of key.split('.')) {
      found = typeof found === 'object' ? found[part] : undefined;
    }
    if (typeof found !== 'string') return key;
    return found.replace(/%\{(\w+)\}/g, (placeholder, name: string) =>
      name in params ? String(params[name]) : placeholder,
    );
  };
}

export const TextContext = createContext<Text>({ lang: DEFAULT_LANGUAGE, translate: (key) => key });

/** The catalogue lookup of the page language; provided by the sign-in screen and by the console alike. */
export function useText(): Translate {
  return useContext(TextContext).translate;
}

/** The page language, from the same provider as the texts. */
export function useTextLang(): Language {
  return useContext(TextContext).lang;
}
