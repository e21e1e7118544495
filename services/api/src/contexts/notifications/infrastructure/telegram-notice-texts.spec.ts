import {
  TELEGRAM_MESSAGE_MAX_CHARS,
  TELEGRAM_NOTICE_KINDS,
  type TelegramNoticeParams,
  telegramNoticeText,
} from './telegram-notice-texts';

const PORTAL = 'https://kupa.example';

const params: TelegramNoticeParams = {
  link: '/subscriptions/s-1',
  planName: 'Premium HD',
  login: 'tv.dana',
  endDate: '2026-12-31T00:00:00.000Z',
  paymentDate: '2026-12-28T00:00:00.000Z',
  graceDeadline: '2027-01-03T00:00:00.000Z',
  graceEndsAt: '2027-01-03T00:00:00.000Z',
  missingMinor: 450,
  chargedMinor: 1000,
  discountPercent: 0,
  refundedMinor: 1000,
  loginTaken: false,
  receivedMinor: 2000,
  purchaseKind: 'BUY',
  number: 42,
  receiptKind: 'DEPOSIT',
  amountMinor: 2500,
  subject: 'News',
  body: 'New channels',
  device: 'Safari 17 on iOS 17',
  ipAddress: '5.29.1.1',
  countryCode: 'IL',
  senderName: 'Dana Levi',
  senderProfileId: '100234',
  balanceMinor: 320,
  thresholdMinor: 500,
  clientName: 'Dana Levi',
  clientProfileId: '100234',
  method: 'MANUAL_TRANSFER',
  renewedCount: 3,
  shortCount: 2,
  erroredCount: 1,
  processor: 'receipts',
  lagEvents: 12_000,
  lagSeconds: 412.5,
  laggingSince: '2026-11-30T09:00:00.000Z',
};

describe('what a notice says in Telegram', () => {
  it.each(TELEGRAM_NOTICE_KINDS.flatMap((kind) => [[kind, 'he'] as const, [kind, 'en'] as const]))(
    'Given a %s notice in %s, When rendered, Then it has words of its own and ends with the portal link',
    (kind, language) => {
      const text = telegramNoticeText(kind, params, language, PORTAL);
      const [words, link] = text
        .split('\n')
        .filter((line) => line !== '')
        .slice(-2);
      expect(link).toBe(`${PORTAL}/subscriptions/s-1`);
      expect(words!.length).toBeGreaterThan(5);
      expect(text).not.toContain('undefined');
      expect(text).not.toContain('{');
    },
  );

  it('Given a large deposit, When rendered for staff, Then the amount, the method as the console names it, the client by name and profile ID', () => {
    expect(telegramNoticeText('staff-large-deposit', params, 'en', PORTAL)).toMatch(
      /^Large deposit: \$25\.00 by Manual transfer for Dana Levi \(100234\)\.\n/,
    );
    expect(telegramNoticeText('staff-large-deposit', params, 'he', PORTAL)).toContain('העברה ידנית');
  });

  it('Given a renewal pass, When rendered for staff, Then its counts, and the errors only when there were some', () => {
    expect(telegramNoticeText('staff-renewals-failed', params, 'en', PORTAL)).toContain(
      'Renewal sweep: 3 renewed, 2 short of balance, 1 failed with an error (see the log).',
    );
    expect(telegramNoticeText('staff-renewals-failed', { ...params, erroredCount: 0 }, 'en', PORTAL)).toContain(
      'Renewal sweep: 3 renewed, 2 short of balance.\n',
    );
  });

  it('Given amounts and dates, When rendered in English, Then dollars and a calendar day', () => {
    const text = telegramNoticeText('renewal-short', params, 'en', PORTAL);
    expect(text).toContain('$4.50');
    expect(text).toContain('December 28, 2026');
  });

  it('Given money that arrived, When rendered, Then the amount, who sent it (never an e-mail) and the threshold', () => {
    expect(telegramNoticeText('deposit-credited', params, 'en', PORTAL)).toContain('$25.00 arrived');
    const transfer = telegramNoticeText('transfer-received', params, 'he', PORTAL);
    // Isolated, so that the Latin name and its number keep their order inside the Hebrew sentence.
    expect(transfer).toContain('\u2068Dana Levi (100234)\u2069');
    expect(transfer).toContain('25.00');
    const low = telegramNoticeText('low-balance', params, 'en', PORTAL);
    expect(low).toContain('$3.20');
    expect(low).toContain('$5.00');
  });

  it('Given the trial (no plan name), When rendered, Then it is named as the trial', () => {
    expect(telegramNoticeText('activated', { ...params, planName: null }, 'en', PORTAL)).toContain('trial');
    expect(telegramNoticeText('activated', { ...params, planName: null }, 'he', PORTAL)).toContain('תקופת הניסיון');
  });

  it('Given no link, When rendered, Then it points to the notifications page', () => {
    expect(telegramNoticeText('announcement', { subject: 'a', body: 'b' }, 'en', PORTAL)).toMatch(
      /\nhttps:\/\/kupa\.example\/notifications$/,
    );
  });

  it('Given an announcement longer than Telegram takes, When rendered, Then it is cut and the link kept', () => {
    const text = telegramNoticeText('announcement', { ...params, body: 'x'.repeat(10_000) }, 'he', PORTAL);
    expect(text.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_MAX_CHARS);
    expect(text.endsWith(`…\n${PORTAL}/subscriptions/s-1`)).toBe(true);
  });

  it('Given a kind this release does not know, When rendered, Then it still points to the portal', () => {
    expect(telegramNoticeText('a-kind-from-a-later-release', {}, 'en', PORTAL)).toBe(
      `You have a new notice in the portal.\n${PORTAL}/notifications`,
    );
  });
});
