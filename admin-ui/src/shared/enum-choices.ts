import { enumLabel, type EnumName } from '@kupa/proto';
import { useMemo } from 'react';
import { useLang } from './use-lang';

export interface Choice {
  id: string;
  name: string;
}

/**
 * Select choices for an enum: the values come from proto's lists and the labels from proto's he/en labels, so no
 * screen keeps its own copy of either. Use with `translateChoice={false}`: the names are already translated.
 */
export function useEnumChoices(name: EnumName, values: readonly string[]): Choice[] {
  const lang = useLang();
  return useMemo(
    () => values.map((value) => ({ id: value, name: enumLabel(name, value, lang) })),
    [name, values, lang],
  );
}
