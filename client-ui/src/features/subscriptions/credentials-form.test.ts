import { checkCredentials, type CredentialsValues } from './credentials-form';

const valid: CredentialsValues = { login: 'dana.levi', password: 'pass', confirmPassword: 'pass' };
const codes = (values: Partial<CredentialsValues>, fields: 'both' | 'login' | 'password' = 'both') =>
  Object.fromEntries(
    Object.entries(checkCredentials({ ...valid, ...values }, fields)).map(([field, issue]) => [field, issue?.error]),
  );

describe('subscription credentials', () => {
  it('takes a login of 6 to 64 lowercase letters, digits, dots, hyphens or underscores', () => {
    for (const login of ['dana.l', 'a'.repeat(64), 'd-a_n.a9', '123456']) expect(codes({ login })).toEqual({});
    for (const login of ['dana', 'a'.repeat(65), 'Dana.Levi', 'dana levi', 'dana@levi', 'דנה.לוי.1', ' dana.levi']) {
      expect(codes({ login })).toEqual({ login: 'error.validation.subscription.login' });
    }
    expect(codes({ login: '' })).toEqual({ login: 'error.validation.required' });
  });

  it('takes a password of at least 4 printable ASCII characters, typed twice alike', () => {
    for (const password of ['abcd', 'My pass!', '~!@#$%^&*()']) {
      expect(codes({ password, confirmPassword: password })).toEqual({});
    }
    for (const password of ['abc', 'סיסמה-ארוכה', 'tab\there']) {
      expect(codes({ password, confirmPassword: password })).toEqual({
        password: 'error.validation.subscription.password',
      });
    }
    expect(codes({ confirmPassword: 'pas' })).toEqual({ confirmPassword: 'error.validation.passwords.do.not.match' });
    expect(codes({ confirmPassword: '' })).toEqual({ confirmPassword: 'error.validation.required' });
  });

  it('checks only the fields a dialog asks for', () => {
    expect(codes({ login: 'X', password: '' }, 'login')).toEqual({ login: 'error.validation.subscription.login' });
    expect(codes({ login: 'X', password: 'abc', confirmPassword: 'abc' }, 'password')).toEqual({
      password: 'error.validation.subscription.password',
    });
  });
});
