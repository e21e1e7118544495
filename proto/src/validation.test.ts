import { describe, expect, it } from 'vitest';
import { parseAmountToMinor } from './money';
import {
  checkEmail,
  checkPassword,
  checkPersonName,
  checkRecipient,
  checkReferralToken,
  checkSubscriptionLogin,
  checkSubscriptionPassword,
  checkTextLength,
} from './validation';

describe('validation rules (docs/product.md, Business constants)', () => {
  it('accepts a password with every class and refuses each missing class, spaces and short ones', () => {
    expect(checkPassword('Abcdef1!')).toBeNull();
    for (const bad of ['abcdef1!', 'ABCDEF1!', 'Abcdefg!', 'Abcdefg1', 'Ab1!', 'Abc def1!', 'Abcdéf1!']) {
      expect(checkPassword(bad), bad).toEqual({ error: 'error.validation.password.rules', params: { length: 8 } });
    }
  });

  it('takes subscription logins of 6 to 64 lowercase letters, digits, dots, hyphens and underscores', () => {
    expect(checkSubscriptionLogin('dana.k_1-x')).toBeNull();
    expect(checkSubscriptionLogin('a'.repeat(64))).toBeNull();
    for (const bad of ['abcde', 'a'.repeat(65), 'Dana12', 'dana k1', 'דנה12345'])
      expect(checkSubscriptionLogin(bad), bad).not.toBeNull();
  });

  it('takes printable ASCII subscription passwords of at least 4 characters', () => {
    expect(checkSubscriptionPassword('ab1~')).toBeNull();
    expect(checkSubscriptionPassword('ab1')).not.toBeNull();
    expect(checkSubscriptionPassword('סיסמה12')).not.toBeNull();
  });

  it('takes names that start with a letter or apostrophe, in Hebrew too', () => {
    for (const good of ['דנה', "O'Brien", 'Jean-Luc', "'Ali", 'María José'])
      expect(checkPersonName(good), good).toBeNull();
    for (const bad of ['1Dana', '-Dana', 'Da<na>', ' ']) expect(checkPersonName(bad), bad).not.toBeNull();
  });

  it('takes an e-mail or an 8-digit profile ID as a transfer recipient', () => {
    expect(checkRecipient('12345678')).toBeNull();
    expect(checkRecipient('dana@example.com')).toBeNull();
    expect(checkRecipient('1234567')).toEqual({ error: 'error.validation.invalid.recipient' });
    expect(checkEmail('dana@example')).toEqual({ error: 'error.validation.invalid.email' });
  });

  it('keeps text under 256 characters and the ref numeric', () => {
    expect(checkTextLength('x'.repeat(255))).toBeNull();
    expect(checkTextLength('x'.repeat(256))).toEqual({ error: 'error.validation.max.length', params: { max: 255 } });
    expect(checkReferralToken('12345678')).toBeNull();
    expect(checkReferralToken('12ab')).toEqual({ error: 'error.validation.ref.numeric' });
  });

  it('turns dollar amounts into cents and refuses a third decimal, zero, negatives and more than 99999.99', () => {
    expect(parseAmountToMinor(12.5)).toEqual({ ok: true, amountMinor: 1250 });
    expect(parseAmountToMinor(0.29)).toEqual({ ok: true, amountMinor: 29 });
    expect(parseAmountToMinor(99999.99)).toEqual({ ok: true, amountMinor: 9_999_999 });
    expect(parseAmountToMinor(100000)).toEqual({ ok: false, error: 'error.validation.max' });
    expect(parseAmountToMinor(1.005)).toEqual({ ok: false, error: 'error.validation.max.decimal.places' });
    expect(parseAmountToMinor(0)).toEqual({ ok: false, error: 'error.validation.must.be.positive' });
    expect(parseAmountToMinor(-1)).toEqual({ ok: false, error: 'error.validation.must.be.positive' });
    expect(parseAmountToMinor('10')).toEqual({ ok: false, error: 'error.validation.invalid.input' });
  });
});
