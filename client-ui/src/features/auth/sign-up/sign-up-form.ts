import {
  checkEmail,
  checkPassword,
  checkPasswordConfirmation,
  checkPersonName,
  checkRequired,
  firstIssue,
  type RuleIssue,
} from '@kupa/proto';

export interface SignUpValues {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  confirmPassword: string;
  termsAccepted: boolean;
}

export type SignUpField = keyof SignUpValues;

export const EMPTY_SIGN_UP: SignUpValues = {
  email: '',
  firstName: '',
  lastName: '',
  password: '',
  confirmPassword: '',
  termsAccepted: false,
};

/** Every field's first problem by proto's rules; an empty result means the form may be sent. */
export function validateSignUp(values: SignUpValues): Partial<Record<SignUpField, RuleIssue>> {
  const issues: Partial<Record<SignUpField, RuleIssue>> = {};
  const email = firstIssue(values.email.trim(), checkRequired, checkEmail);
  if (email) issues.email = email;
  const firstName = firstIssue(values.firstName, checkRequired, checkPersonName);
  if (firstName) issues.firstName = firstName;
  const lastName = firstIssue(values.lastName, checkRequired, checkPersonName);
  if (lastName) issues.lastName = lastName;
  const password = firstIssue(values.password, checkRequired, checkPassword);
  if (password) issues.password = password;
  const confirmation =
    checkRequired(values.confirmPassword) ?? checkPasswordConfirmation(values.password, values.confirmPassword);
  if (confirmation) issues.confirmPassword = confirmation;
  if (!values.termsAccepted) issues.termsAccepted = { error: 'error.validation.terms.not.accepted' };
  return issues;
}
