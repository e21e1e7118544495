import type { ClientNotification, Language } from '@kupa/proto';
import { describe, expect, it } from 'vitest';
import { translate } from '../../lib/i18n/i18n';
import { notificationText } from './notification-text';

const FAILED: ClientNotification = {
  id: '7a000000-0000-4000-8000-000000000009',
  kind: 'renewal-failed',
  params: {
    subscriptionId: '5d2e8f10-0000-4000-8000-0000000000c9',
    planName: 'Gold',
    missingMinor: 1000,
    graceDeadline: '2026-05-04T09:00:00.000Z',
    endDate: '2026-05-01T09:00:00.000Z',
    link: '/payments/deposit?amountMinor=1000',
  },
  createdAt: '2026-04-28T09:00:00.000Z',
  readAt: null,
};

const textOf = (notification: ClientNotification, lang: Language) =>
  notificationText(notification, (key, params) => translate(lang, key, params), lang);

describe('the renewal-failed notification after the saved card was tried (ADR 0086)', () => {
  it('says the card was declined, or that the bank wants the holder, before what the balance lacks', () => {
    const declined = { ...FAILED, params: { ...FAILED.params, cardFailure: 'DECLINED' as const } };
    const holder = { ...FAILED, params: { ...FAILED.params, cardFailure: 'REQUIRES_ACTION' as const } };
    expect(textOf(declined, 'en').body).toMatch(/^Your saved card was declined for this renewal\. Your balance is/);
    expect(textOf(holder, 'en').body).toMatch(/^Your bank wants you to confirm the payment yourself/);
    expect(textOf(declined, 'he').body).toMatch(/^הכרטיס השמור שלך נדחה/);
    expect(textOf(holder, 'he').body).toMatch(/^הבנק שלך מבקש/);
    // Without a card tried, the reminder is as before; the action stays the top-up of what is missing.
    expect(textOf(FAILED, 'en').body).toMatch(/^Your balance is/);
    expect(textOf(declined, 'en').action).toBe(textOf(FAILED, 'en').action);
  });
});

describe('the new-device notification (ADR 0099, 0101)', () => {
  const NEW_DEVICE: ClientNotification = {
    id: '7a000000-0000-4000-8000-00000000000a',
    kind: 'new-device',
    params: {
      sessionId: '22222222-2222-4222-8222-222222222222',
      device: 'Safari 17 on iOS 17',
      ipAddress: '5.29.1.1',
      countryCode: 'IL',
      link: '/end-session?token=x',
    },
    createdAt: '2026-11-30T09:00:00.000Z',
    readAt: null,
  };

  it('names the country of the address in the language of the screen, with the address', () => {
    expect(textOf(NEW_DEVICE, 'en').body).toMatch(/^From Israel \(5\.29\.1\.1\)\. /);
    expect(textOf(NEW_DEVICE, 'he').body).toMatch(/^מישראל \(5\.29\.1\.1\)\. /);
  });

  it('says the address alone when its country is not known, or the notice is older than the country', () => {
    const unknown = { ...NEW_DEVICE, params: { ...NEW_DEVICE.params, countryCode: null } };
    const { countryCode: _older, ...olderParams } = NEW_DEVICE.params;
    expect(textOf(unknown, 'en').body).toMatch(/^From the address 5\.29\.1\.1\. /);
    expect(textOf({ ...NEW_DEVICE, params: olderParams }, 'he').body).toMatch(/^מהכתובת 5\.29\.1\.1\. /);
  });
});

describe('the balance notices (ADR 0105)', () => {
  const base = { createdAt: '2026-11-30T09:00:00.000Z', readAt: null };
  const DEPOSIT: ClientNotification = {
    ...base,
    id: '7a000000-0000-4000-8000-00000000000b',
    kind: 'deposit-credited',
    params: { amountMinor: 2500, method: 'CARD', paymentId: 41, link: '/payments/41' },
  };
  const TRANSFER: ClientNotification = {
    ...base,
    id: '7a000000-0000-4000-8000-00000000000c',
    kind: 'transfer-received',
    params: {
      amountMinor: 750,
      paymentId: 42,
      senderName: 'Dana Cohen',
      senderProfileId: '123456',
      link: '/payments/42',
    },
  };
  const LOW: ClientNotification = {
    ...base,
    id: '7a000000-0000-4000-8000-00000000000d',
    kind: 'low-balance',
    params: { balanceMinor: 700, thresholdMinor: 800, link: '/payments/deposit?amountMinor=100' },
  };

  it('says how much a deposit brought and how it was paid, in both languages', () => {
    expect(textOf(DEPOSIT, 'en').title).toBe('A deposit of $25.00 reached your balance');
    expect(textOf(DEPOSIT, 'en').body).toMatch(/^Payment method: \S/);
    expect(textOf(DEPOSIT, 'he').title).toMatch(/^הפקדה של .*25\.00.* נכנסה ליתרה שלך$/);
    expect(textOf(DEPOSIT, 'en').action).toBe('View the payment');
  });

  it('names the sender of a transfer by name and profile ID, or the profile ID alone', () => {
    expect(textOf(TRANSFER, 'en')).toMatchObject({
      title: 'You received a transfer of $7.50',
      body: 'From \u2068Dana Cohen (123456)\u2069. It was added to your balance.',
    });
    const nameless = { ...TRANSFER, params: { ...TRANSFER.params, senderName: null } };
    expect(textOf(nameless, 'he').body).toBe('מאת \u2068123456\u2069. הסכום נוסף ליתרה שלך.');
  });

  it('tells a low balance with the threshold and the top-up back to it', () => {
    expect(textOf(LOW, 'en')).toMatchObject({
      title: 'Your balance fell under $8.00',
      body: 'It is now $7.00. Top it up so that your next renewals go through.',
    });
    expect(textOf(LOW, 'en').action).toContain('$1.00');
    expect(textOf(LOW, 'he').title).toMatch(/^היתרה שלך ירדה אל מתחת ל-/);
  });
});
