import { type ReactNode, useCallback } from 'react';
import { fillPlaceholders, type Language, type MessageParams } from '@kupa/proto';
import { useLangStore } from '../stores/lang-store';
import { isolated, richText } from './rich-text';

/** One part's texts in both languages, the English typed against the Hebrew keys as the main dictionaries are. */
export type DictionaryPart<Key extends string> = Readonly<Record<Language, Readonly<Record<Key, string>>>>;

/**
 * The texts of a part of the portal that the first screen never shows (a staff member's view, the staff sign-in
 * notice), kept out of the main dictionaries so that they load with the screens that show them rather than with the
 * sign-in page (docs/adr/0048-first-screen-in-one-chunk.md). `t` and `tIsolated` work as `useT`'s do.
 */
export function usePartT<Key extends string>(part: DictionaryPart<Key>) {
  const lang = useLangStore((state) => state.lang);
  const t = useCallback(
    (key: Key, params: MessageParams = {}) => fillPlaceholders(part[lang][key], params),
    [lang, part],
  );
  const tIsolated = useCallback(
    (key: Key, params: Readonly<Record<string, string | number>>): ReactNode =>
      richText(part[lang][key], isolated(params)),
    [lang, part],
  );
  return { t, tIsolated, lang };
}
