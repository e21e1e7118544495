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
