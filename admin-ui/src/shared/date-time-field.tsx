import { DateField, type DateFieldProps } from 'react-admin';
import { useLang } from './use-lang';

/** A date and time in the page language's conventions (react-admin formats with the browser locale otherwise). */
export function DateTimeField(props: DateFieldProps) {
  const lang = useLang();
  return <DateField showTime locales={lang === 'he' ? 'he-IL' : 'en-GB'} {...props} />;
}
