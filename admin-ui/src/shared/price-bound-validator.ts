import { formatErrorMessage } from '@kupa/proto';
import { toPriceBound } from '../providers/filter-values';
import { useLang } from './use-lang';

/**
 * A price filter's bound takes a price (0 to 99 999.99, two decimals at most); anything else is refused before the
 * list is asked, with the reason, so the list never seems to ignore it (the packages and subscriptions lists).
 */
export function usePriceBoundValidator() {
  const lang = useLang();
  return (value: unknown) => {
    const text = typeof value === 'string' ? value.trim() : value === null || value === undefined ? '' : String(value);
    return text === '' || toPriceBound(text) !== undefined
      ? undefined
      : formatErrorMessage('error.validation.invalid.input', lang);
  };
}

/** Filter forms hide helper text; a refused bound must say why. */
export const SHOW_FILTER_ERROR = { '& .MuiFormHelperText-root.Mui-error': { display: 'block' } };
