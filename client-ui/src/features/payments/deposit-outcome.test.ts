import { clientEnumLabel } from '@kupa/proto';
import { translate } from '../../lib/i18n/i18n';
import { makePayment } from '../../test/render-app';
import { creditedSentence, depositNotice } from './deposit-outcome';

describe('a deposit held for review', () => {
  it('says the money is held for staff, not that the deposit ended without money', () => {
    const held = makePayment({ status: 'REVIEW', type: 'DEPOSIT', aggregator: 'CASHIER' });
    for (const lang of ['en', 'he'] as const) {
      expect(creditedSentence(held, lang)).toBe(translate(lang, 'deposit.review'));
      expect(creditedSentence(held, lang)).not.toContain(clientEnumLabel('paymentStatus', 'REVIEW', lang));
    }
    expect(depositNotice(held, 'en')).toMatchObject({
      severity: 'warning',
      message: translate('en', 'deposit.review'),
    });
  });
});
