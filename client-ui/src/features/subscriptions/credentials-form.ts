import {
  checkPasswordConfirmation,
  checkRequired,
  checkSubscriptionLogin,
  checkSubscriptionPassword,
  firstIssue,
  type RuleIssue,
} from '@kupa/proto';

/** What the streaming service account is opened or changed with. */
export interface CredentialsValues {
  login: string;
  password: string;
  confirmPassword: string;
}

export type CredentialsField = keyof CredentialsValues;

/** Which of the fields a dialog asks for: both (buy, trial), the login alone, or a new password with its confirmation. */
export type CredentialsFields = 'both' | 'login' | 'password';

export const EMPTY_CREDENTIALS: CredentialsValues = { login: '', password: '', confirmPassword: '' };

/**
 * Proto's rules for a subscription's credentials (docs/product.md): a login of 6 to 64 lowercase English letters,
 * digits, dots, hyphens or underscores; a password of at least 4 printable ASCII characters, typed twice alike.
 */
export function checkCredentials(
  values: CredentialsValues,
  fields: CredentialsFields,
): Partial<Record<CredentialsField, RuleIssue>> {
  const issues: Partial<Record<CredentialsField, RuleIssue>> = {};
  if (fields !== 'password') {
    const login = firstIssue(values.login, checkRequired, checkSubscriptionLogin);
    if (login) issues.login = login;
  }
  if (fields !== 'login') {
    const password = firstIssue(values.password, checkRequired, checkSubscriptionPassword);
    if (password) issues.password = password;
    const confirmation =
      checkRequired(values.confirmPassword) ?? checkPasswordConfirmation(values.password, values.confirmPassword);
    if (confirmation) issues.confirmPassword = confirmation;
  }
  return issues;
}
