import { ValidationFailedError } from '../../../../platform/http';

/**
 * A date-time format in the time zone a statement file is written in (CSV and PDF alike). The request's pattern
 * admits any IANA-looking name; one this runtime does not know is still the caller's mistake: 400 on `timeZone`.
 */
export function statementDateTimeFormat(
  locale: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone });
  } catch {
    throw new ValidationFailedError([{ field: 'timeZone', error: 'error.validation.invalid.format' }]);
  }
}
