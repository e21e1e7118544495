import type { Language } from '@kupa/proto';
import { errorMessageFor, fieldErrorsOf, isApiError } from '../../lib/api/api-error';
import type { CredentialsField } from './credentials-form';

/** How a refused purchase, trial or change is shown in its dialog. */
export interface CredentialsRefusal {
  /** Beside a field: a 400's details, or a login the streaming service already has. */
  fields: Partial<Record<CredentialsField, string>>;
  /** The balance was short when the server looked: the dialog shows the shortfall and the way to top up. */
  insufficientBalance: boolean;
  /** Any other refusal, in the catalogue's words (a package no longer on sale, the streaming service unreachable). */
  message: string | null;
}

const LOGIN_ERRORS = new Set(['error.login.already.exists', 'error.trial.login.cannot.be.changed']);

export function credentialsRefusal(error: unknown, lang: Language): CredentialsRefusal {
  const refusal: CredentialsRefusal = { fields: fieldErrorsOf(error, lang), insufficientBalance: false, message: null };
  if (isApiError(error) && error.handled) return refusal;
  if (isApiError(error) && LOGIN_ERRORS.has(error.code)) refusal.fields.login = errorMessageFor(error, lang);
  else if (isApiError(error) && error.code === 'error.insufficient.balance') refusal.insufficientBalance = true;
  else if (Object.keys(refusal.fields).length === 0) refusal.message = errorMessageFor(error, lang);
  return refusal;
}

export const NO_REFUSAL: CredentialsRefusal = { fields: {}, insufficientBalance: false, message: null };

/** The refusal once the user edits `field`: that field's message and the general one go, the balance state stays. */
export function afterEdit(refusal: CredentialsRefusal, field: CredentialsField): CredentialsRefusal {
  return { ...refusal, fields: { ...refusal.fields, [field]: undefined }, message: null };
}
