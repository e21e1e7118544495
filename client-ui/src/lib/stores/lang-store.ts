import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { DEFAULT_LANGUAGE, LANGUAGES, isOneOf, type Language } from '@kupa/proto';

interface LangStore {
  lang: Language;
  setLang: (lang: Language) => void;
}

/** The interface language, persisted under the `lang` key; Hebrew unless the user chose otherwise. */
export const useLangStore = create<LangStore>()(
  persist(
    (set) => ({
      lang: DEFAULT_LANGUAGE,
      setLang: (lang) => set({ lang }),
    }),
    {
      name: 'lang',
      storage: createJSONStorage(() => localStorage),
      partialize: ({ lang }) => ({ lang }),
      // A hand-edited or outdated value falls back to the default rather than breaking every translation.
      merge: (persisted, current) => {
        const lang = (persisted as { lang?: unknown } | undefined)?.lang;
        return { ...current, lang: isOneOf(LANGUAGES, lang) ? lang : DEFAULT_LANGUAGE };
      },
    },
  ),
);

/** The language outside React, for code such as the API client that runs between renders. */
export function currentLang(): Language {
  return useLangStore.getState().lang;
}
