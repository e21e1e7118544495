import {
  type Dictionaries,
  type DictionaryEntry,
  type EnumName,
  ENUM_VALUES,
  enumLabel,
  LIMITS,
  type SupportContacts,
} from '@kupa/proto';

/**
 * Every enum with its he/en labels, every limit and the support contacts: what a client needs to render forms and its
 * help screen without hard-coding.
 */
export function buildDictionaries(support: SupportContacts): Dictionaries {
  const enums: Record<string, DictionaryEntry[]> = {};
  for (const [name, values] of Object.entries(ENUM_VALUES) as [EnumName, readonly (string | number)[]][]) {
    enums[name] = values.map((value) => ({
      value,
      he: enumLabel(name, value, 'he'),
      en: enumLabel(name, value, 'en'),
    }));
  }
  return { enums, limits: { ...LIMITS }, support: { ...support } };
}
