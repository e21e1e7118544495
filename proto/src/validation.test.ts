import { describe, expect, it } from 'vitest';
import { parseAmountTextToMinor, parseAmountToMinor, parsePlanPriceToMinor, parseTypedAmountToMinor } from './money';
import {
  checkEmail,
  checkIsoDateTime,
  checkTimeZone,
  checkUuid,
  normalizeEmail,
  checkPassword,
  checkPersonName,
  checkRecipient,
  checkReferralToken,
  checkSubscriptionLogin,
  checkSubscriptionPassword,
  checkTextLength,
  checkPlanDescription,
  checkPlanFeatures,
  checkPlanName,
  checkPlanTerms,
  checkNoteText,
  checkPublicNote,
  textLength,
} from './validation';
import type { PaymentPlanTerms } from './catalog-events';
import { LIMITS } from './limits';

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

  it('refuses e-mail addresses with any non-ASCII character, visible or not', () => {
    for (const good of ['dana@example.com', "o'brien+tag@mail.example.co.il", 'a_b@xn--pypal-4ve.com'])
      expect(checkEmail(good), good).toBeNull();
    const hostile = [
      'dana\u200b@example.com',
      'dana@exa\u200cmple.com',
      'dana\u200d@example.com',
      'dana@example.com\u2060',
      '\ufeffdana@example.com',
      'dana\u202e@example.com',
      'dana@\u202aexample.com',
      'dana\u2066@example.com',
      'dana@example.com\u2069',
      'da\u00adna@example.com',
      'dana@p\u0430ypal.com',
      'dana\uff20example.com',
      'd\u00e1na@example.com',
      '\u212aate@example.com',
      'dana@exam_ple.com',
      'dana@@example.com',
      'dana @example.com',
    ];
    for (const bad of hostile) {
      expect(checkEmail(bad), JSON.stringify(bad)).toEqual({ error: 'error.validation.invalid.email' });
      expect(checkRecipient(bad), JSON.stringify(bad)).toEqual({ error: 'error.validation.invalid.recipient' });
    }
  });

  it('takes addresses by the HTML grammar with a dot-atom local part and a dotted domain', () => {
    const good = [
      'dana@example.com',
      "o'brien+tag@mail.example.co.il",
      'first.last@example.com',
      "!#$%&'*+/=?^_`{|}~-@example.com",
      'a@b-c.d1',
      `${'l'.repeat(64)}@example.com`,
      `dana@${'d'.repeat(63)}.com`,
    ];
    for (const address of good) expect(checkEmail(address), address).toBeNull();
    const bad = [
      // Probed: nodemailer reads the first as victim@example.com, so that account's mail would go elsewhere.
      'zz2<victim@example.com',
      '"@x.y',
      '.a@b.c',
      'a.@b.c',
      'a..b@example.com',
      '"quoted"@example.com',
      'dana,eve@example.com',
      'Dana <dana@example.com>',
      'dana@example',
      'dana@-example.com',
      'dana@example-.com',
      'dana@example..com',
      'dana@.example.com',
      'dana@example.com.',
      'dana@[127.0.0.1]',
      `${'l'.repeat(65)}@example.com`,
      `dana@${'d'.repeat(64)}.com`,
      `dana@${'d.'.repeat(125)}com`,
    ];
    for (const address of bad) {
      expect(checkEmail(address), address).toEqual({ error: 'error.validation.invalid.email' });
      expect(checkRecipient(address), address).toEqual({ error: 'error.validation.invalid.recipient' });
    }
  });

  it('normalises only ASCII in e-mail addresses, so that no other character is folded into an accepted one', () => {
    expect(normalizeEmail('  Dana@Example.COM\t')).toBe('dana@example.com');
    expect(normalizeEmail('\u212aate@example.com')).toBe('\u212aate@example.com');
    expect(normalizeEmail('\ufeffdana@example.com ')).toBe('\ufeffdana@example.com');
  });

  it('takes calendar days and instants with an offset in the ISO extended form only', () => {
    const good = [
      '2026-05-03',
      '2024-02-29',
      '2000-02-29',
      '2026-05-03T10:00Z',
      '2026-05-03T23:59:59Z',
      '2026-05-03T10:00:00.123Z',
      '2026-05-03T10:00:00.123456+03:00',
      '2026-05-03T10:00:00-05:30',
    ];
    for (const value of good) expect(checkIsoDateTime(value), value).toBeNull();
    const bad = [
      '2026-02-30',
      '2026-02-29',
      '1900-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '0000-01-01',
      '02/03/2026',
      '2026-2-3',
      '20260203',
      '2026-034',
      '2026-W05-3',
      'tomorrow',
      '1700000000000',
      '',
      ' 2026-05-03',
      '2026-05-03 ',
      '2026-05-03T10:00',
      '2026-05-03T10:00:00',
      '2026-05-03 10:00Z',
      '2026-05-03T24:00Z',
      '2026-05-03T10:60Z',
      '2026-05-03T10:00:60Z',
      '2026-05-03T10:00+15:00',
      '２０２６-05-03',
    ];
    for (const value of bad)
      expect(checkIsoDateTime(value), value).toEqual({ error: 'error.validation.invalid.format' });
  });

  it('takes UUIDs in their canonical lower-case form only', () => {
    expect(checkUuid('7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e')).toBeNull();
    for (const bad of [
      '7D1C2A52-96A4-4F8E-9D55-3A0D4C6C1F0E',
      '{7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e}',
      '7d1c2a5296a44f8e9d553a0d4c6c1f0e',
      ' 7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e',
      'urn:uuid:7d1c2a52-96a4-4f8e-9d55-3a0d4c6c1f0e',
    ])
      expect(checkUuid(bad), bad).toEqual({ error: 'error.validation.invalid.format' });
  });

  it('takes IANA time zones and UTC, not abbreviations, POSIX rules or paths', () => {
    for (const zone of [
      'UTC',
      'Asia/Jerusalem',
      'America/Argentina/Buenos_Aires',
      'Etc/GMT-3',
      'America/Port-au-Prince',
    ])
      expect(checkTimeZone(zone), zone).toBeNull();
    for (const bad of [
      'IST',
      'EST5EDT',
      'utc',
      'Asia/',
      '../etc/passwd',
      'Asia/Jerusalem; DROP',
      `Asia/${'x'.repeat(70)}`,
    ])
      expect(checkTimeZone(bad), bad).toEqual({ error: 'error.validation.invalid.format' });
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

  it('checks an amount as it was written: exact dollars and cents, never rounded', () => {
    expect(parseAmountTextToMinor('12')).toEqual({ ok: true, amountMinor: 1200 });
    expect(parseAmountTextToMinor('12.5')).toEqual({ ok: true, amountMinor: 1250 });
    expect(parseAmountTextToMinor('12.50')).toEqual({ ok: true, amountMinor: 1250 });
    expect(parseAmountTextToMinor('0.29')).toEqual({ ok: true, amountMinor: 29 });
    expect(parseAmountTextToMinor('0', { allowZero: true })).toEqual({ ok: true, amountMinor: 0 });
    // Each reads as a fine number once parsed (1E-2 is 0.01, 1.0000000000000001 is 1), so only the text can tell.
    for (const [text, error] of [
      ['1E-2', 'error.validation.invalid.input'],
      ['1e2', 'error.validation.invalid.input'],
      ['0x10', 'error.validation.invalid.input'],
      ['012', 'error.validation.invalid.input'],
      [' 12', 'error.validation.invalid.input'],
      ['12.', 'error.validation.invalid.input'],
      ['.5', 'error.validation.invalid.input'],
      ['', 'error.validation.invalid.input'],
      ['12.345', 'error.validation.max.decimal.places'],
      ['1.0000000000000001', 'error.validation.max.decimal.places'],
      ['-0', 'error.validation.must.be.positive'],
      ['-0.5', 'error.validation.must.be.positive'],
      ['-12', 'error.validation.must.be.positive'],
      ['0', 'error.validation.must.be.positive'],
      ['100000', 'error.validation.max'],
    ] as const)
      expect(parseAmountTextToMinor(text), text).toEqual({ ok: false, error });
  });

  it('reads a typed amount by the same rule, forgiving only spaces, a sign and leading zeros', () => {
    expect(parseTypedAmountToMinor(' +012.50 ')).toEqual({ ok: true, amountMinor: 1250 });
    expect(parseTypedAmountToMinor('\u22125')).toEqual({ ok: false, error: 'error.validation.must.be.positive' });
    expect(parseTypedAmountToMinor('1.0000000000000001')).toEqual({
      ok: false,
      error: 'error.validation.max.decimal.places',
    });
    expect(parseTypedAmountToMinor('1e2')).toEqual({ ok: false, error: 'error.validation.invalid.input' });
    expect(parseTypedAmountToMinor('0', { allowZero: true })).toEqual({ ok: true, amountMinor: 0 });
  });

  it('holds package terms to their limits: name, description, features, duration, price and currency', () => {
    expect(checkPlanName('  Gold  ')).toBeNull();
    expect(checkPlanName('   ')).toEqual({ error: 'error.validation.blank' });
    expect(checkPlanName(` ${'x'.repeat(100)} `)).toBeNull();
    expect(checkPlanName('x'.repeat(101))).toEqual({ error: 'error.validation.max.length', params: { max: 100 } });
    expect(checkPlanDescription('')).toBeNull();
    expect(checkPlanDescription('x'.repeat(256))).toEqual({
      error: 'error.validation.max.length',
      params: { max: 255 },
    });
    expect(checkPlanFeatures([])).toBeNull();
    expect(checkPlanFeatures(['HD', ' '])).toEqual({ error: 'error.validation.blank' });
    expect(checkPlanFeatures(Array.from({ length: 21 }, () => 'HD'))).toEqual({
      error: 'error.validation.max.items',
      params: { maxItems: 20 },
    });
    const terms: PaymentPlanTerms = {
      name: 'Gold',
      durationInMonths: 3,
      priceMinor: 2999,
      currency: 'USD',
      isRecurrent: true,
      description: '',
      features: ['HD'],
      cardPaymentAllowed: true,
      nameEn: '',
      descriptionEn: '',
    };
    expect(checkPlanTerms(terms)).toBeNull();
    expect(checkPlanTerms({ ...terms, nameEn: 'x'.repeat(101) })).toEqual({
      field: 'nameEn',
      error: 'error.validation.max.length',
      params: { max: 100 },
    });
    expect(checkPlanTerms({ ...terms, durationInMonths: 6 as 3 })).toEqual({
      field: 'durationInMonths',
      error: 'error.validation.invalid.field',
    });
    expect(checkPlanTerms({ ...terms, priceMinor: 0 })).toMatchObject({ field: 'priceMinor' });
    expect(checkPlanTerms({ ...terms, priceMinor: 10_000_000 })).toEqual({
      field: 'priceMinor',
      error: 'error.validation.max',
      params: { max: 99999.99 },
    });
    expect(checkPlanTerms({ ...terms, priceMinor: 12.5 })).toMatchObject({ error: 'error.validation.integer' });
    expect(checkPlanTerms({ ...terms, currency: 'EUR' as 'USD' })).toMatchObject({ field: 'currency' });
  });

  it('takes package prices from a cent to 99999.99', () => {
    expect(parsePlanPriceToMinor(0.01)).toEqual({ ok: true, amountMinor: 1 });
    expect(parsePlanPriceToMinor(99999.99)).toEqual({ ok: true, amountMinor: 9_999_999 });
    expect(parsePlanPriceToMinor(100000)).toEqual({ ok: false, error: 'error.validation.max' });
    expect(parsePlanPriceToMinor(0)).toEqual({ ok: false, error: 'error.validation.must.be.positive' });
  });

  it('refuses, rather than cuts, a note or a public note over its limit, counting characters as people do', () => {
    for (const [check, max] of [
      [checkNoteText, LIMITS.noteMaxLength],
      [checkPublicNote, LIMITS.publicNoteMaxLength],
    ] as const) {
      expect(check('ש'.repeat(max))).toBeNull();
      expect(check(`  ${'x'.repeat(max)}  `)).toBeNull();
      expect(check('x'.repeat(max + 1))).toEqual({ error: 'error.validation.max.length', params: { max } });
      expect(check('   ')).toEqual({ error: 'error.validation.blank' });
      expect(check('😀'.repeat(max))).toBeNull();
    }
    expect(textLength('😀א')).toBe(2);
  });
});
