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
