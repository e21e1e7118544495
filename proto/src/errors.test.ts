import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_CATALOGUE,
  clientFieldMessagesOfApiError,
  clientMessageForApiError,
  ERROR_CATALOGUE,
  ERROR_CODES,
  fieldMessagesOfApiError,
  formatClientErrorMessage,
  formatErrorMessage,
  messageForApiError,
  STAFF_ERROR_CATALOGUE,
} from './errors';

describe('error catalogue', () => {
  it('gives every code a Hebrew and an English message and an HTTP status', () => {
    for (const code of ERROR_CODES) {
      const entry = ERROR_CATALOGUE[code];
      expect(entry.he.trim(), code).not.toBe('');
      expect(entry.en.trim(), code).not.toBe('');
      expect(entry.status, code).toBeGreaterThanOrEqual(400);
      expect(entry.he, `${code} must be translated`).not.toBe(entry.en);
    }
  });

  it('uses the same placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const code of ERROR_CODES) {
      expect(placeholders(ERROR_CATALOGUE[code].he), code).toEqual(placeholders(ERROR_CATALOGUE[code].en));
    }
  });

  it('covers every code the product names', () => {
    const required = [
      'error.auth.bad.credentials',
      'error.user.not.active',
      'error.user.email.not.verified',
      'error.login.already.in.use',
      'error.confirmation.token.invalid',
      'error.password.current.incorrect',
      'error.session.expired',
      'error.user.not.found',
      'error.entity.not.found',
      'error.access.forbidden',
      'error.token.invalid',
      'error.bad.request',
      'error.internal.server.error',
      'error.audit.not.found',
      'error.entity.already.exists',
      'error.entity.modified.concurrently',
      'error.entity.not.unique',
      'error.validation.blank',
      'error.validation.too.many.symbols',
      'error.validation.must.be.positive',
      'error.validation.invalid.format',
      'error.validation.invalid.field',
      'error.validation.invalid.sheets.url',
      'error.validation.alphabetical.only',
      'error.validation.less.than.current',
      'error.validation.at.least.six.months.ahead',
      'error.validation.must.be.in.future',
      'error.otp.required',
      'error.otp.initialization.required',
      'error.payment.plan.not.found',
      'error.payment.plan.not.active',
      'error.payment.plan.already.exists',
      'error.payment.plan.cannot.be.deleted',
      'error.payment.plan.cannot.be.modified',
      'error.payment.not.found',
      'error.subscription.not.found',
      'error.streaming.integration.failure',
      'error.password.update.failed',
      'error.directory.login.already.exists',
      'error.directory.login.not.found',
      'error.account.blocked',
      'error.subscriptions.too.many',
      'error.account.already.active',
      'error.insufficient.balance',
      'error.card.provider.unavailable',
      'error.package.cannot.be.bought.via.card.provider',
      'error.trial.already.used',
      'error.withdrawal.exceeds.balance',
      'error.payment.status.manual.only',
      'error.plan.no.longer.available',
      'error.transfer.to.self',
      'error.idempotency.key.reused',
      'error.balance.negative.confirmation.required',
    ];
    for (const code of required) expect(ERROR_CODES, code).toContain(code);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(formatErrorMessage('error.validation.max.items', 'en', { maxItems: 3 })).toBe('At most 3 items');
    expect(formatErrorMessage('error.validation.max', 'he')).toContain('{max}');
  });

  it('translates a server answer by its error code, else its message, else falls back', () => {
    expect(messageForApiError({ status: 409, error: 'error.insufficient.balance', message: 'x' }, 'he')).toBe(
      'אין מספיק יתרה',
    );
    expect(messageForApiError({ status: 400, message: 'error.bad.request' }, 'en')).toBe(
      'Bad request. Please check the data',
    );
    expect(messageForApiError({ status: 418, error: 'teapot', message: 'I am a teapot' }, 'en')).toBe('I am a teapot');
    expect(messageForApiError(null, 'en')).toBe('Internal server error. Please try later');
    expect(
      messageForApiError(
        { status: 409, error: 'error.balance.negative.confirmation.required', details: { resultingBalance: -5 } },
        'en',
      ),
    ).toContain('(-5)');
  });

  it('reads the per-field refusals of a 400 as catalogue messages, the first one of a field winning', () => {
    const body = {
      status: 400,
      error: 'error.validation.failed',
      details: {
        fields: [
          { field: 'email', error: 'error.validation.invalid.format' },
          { field: 'email', error: 'error.validation.max' },
          { field: 'amount', error: 'error.validation.must.be.positive' },
        ],
      },
    };
    expect(fieldMessagesOfApiError(body, 'en')).toEqual({
      email: formatErrorMessage('error.validation.invalid.format', 'en'),
      amount: formatErrorMessage('error.validation.must.be.positive', 'en'),
    });
    expect(fieldMessagesOfApiError({ status: 409, error: 'error.insufficient.balance' }, 'he')).toEqual({});
    expect(fieldMessagesOfApiError(null, 'he')).toEqual({});
  });
});

describe('the catalogue split by audience (docs/adr/0048, the catalogue split)', () => {
  const clientCodes = Object.keys(CLIENT_ERROR_CATALOGUE);
  const staffCodes = Object.keys(STAFF_ERROR_CATALOGUE);

  it('has two disjoint parts whose union is the catalogue, entry for entry', () => {
    expect(clientCodes.filter((code) => staffCodes.includes(code))).toEqual([]);
    expect([...clientCodes, ...staffCodes].sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      const part: Record<string, unknown> = clientCodes.includes(code) ? CLIENT_ERROR_CATALOGUE : STAFF_ERROR_CATALOGUE;
      expect(part[code], code).toBe(ERROR_CATALOGUE[code]);
    }
  });

  it('formats a client code as the whole catalogue does', () => {
    for (const code of clientCodes) {
      const typed = code as keyof typeof CLIENT_ERROR_CATALOGUE;
      expect(formatClientErrorMessage(typed, 'he', { length: 8 })).toBe(formatErrorMessage(typed, 'he', { length: 8 }));
      expect(formatClientErrorMessage(typed, 'en', { length: 8 })).toBe(formatErrorMessage(typed, 'en', { length: 8 }));
    }
  });

  it('shows a code the portal does not carry as the server said it, or the generic message, never the bare code', () => {
    const generic = formatErrorMessage('error.internal.server.error', 'en');
    expect(formatClientErrorMessage('error.bulk.no.targets', 'en')).toBe(generic);
    expect(clientMessageForApiError({ error: 'error.bulk.no.targets', message: 'No clients' }, 'en')).toBe(
      'No clients',
    );
    expect(clientMessageForApiError({ error: 'error.newer.than.this.build', message: '' }, 'en')).toBe(generic);
    expect(
      clientFieldMessagesOfApiError(
        { details: { fields: [{ field: 'batch', error: 'error.bulk.no.targets' }] } },
        'en',
      ),
    ).toEqual({ batch: generic });
  });

  it('reads a client answer as messageForApiError does', () => {
    const body = { error: 'error.validation.min.length', message: 'x', details: { min: 3 } };
    expect(clientMessageForApiError(body, 'he')).toBe(messageForApiError(body, 'he'));
    expect(clientMessageForApiError({ message: 'Plain words' }, 'en')).toBe('Plain words');
    const fields = { details: { fields: [{ field: 'email', error: 'error.validation.invalid.email' }] } };
    expect(clientFieldMessagesOfApiError(fields, 'en')).toEqual(fieldMessagesOfApiError(fields, 'en'));
  });
});
