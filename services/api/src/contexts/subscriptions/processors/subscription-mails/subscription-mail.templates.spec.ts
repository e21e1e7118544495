import { type SubscriptionMail, subscriptionMail } from './subscription-mail.templates';

const context = { firstName: 'Dana', link: 'https://kupa.test/subscriptions/0b6c1f0e-2c1a-4a35-9a53-5a0f8c1f7a11' };

describe('subscription mails', () => {
  it('tells the owner how much is missing when a renewal finds the balance short', () => {
    const mail: SubscriptionMail = {
      kind: 'balance-too-low',
      planName: 'Family',
      priceMinor: 2_500,
      missingMinor: 730,
      endDate: '2026-05-31T10:00:00.000Z',
    };
    const english = subscriptionMail('en', mail, context);
    expect(english.subject).toBe('Top up to keep your Family package');
    expect(english.text).toContain('$25.00');
    expect(english.text).toContain('$7.30 short');
    expect(english.text).toContain('May 31, 2026');
    expect(english.text).toContain(context.link);

    const hebrew = subscriptionMail('he', mail, context);
    expect(hebrew.text).toContain('שלום Dana,');
    expect(hebrew.text).toMatch(/7\.30/);
    expect(hebrew.text).toContain('31 במאי 2026');
    expect(hebrew.html).toContain('dir="rtl"');
  });

  it('reminds of a renewal the balance will not cover: the amount, the payment day, a top-up of exactly that', () => {
    const topUp = { firstName: 'Dana', link: 'https://kupa.test/payments/deposit?amountMinor=730' };
    const mail: SubscriptionMail = {
      kind: 'renewal-short',
      planName: 'Family',
      missingMinor: 730,
      paymentDate: '2026-05-28T10:00:00.000Z',
    };
    const english = subscriptionMail('en', mail, topUp);
    expect(english.subject).toBe('Top up $7.30 to renew your Family package');
    expect(english.text).toContain('May 28, 2026');
    expect(english.html).toContain('Top up $7.30');
    expect(english.text).toContain(topUp.link);
    const hebrew = subscriptionMail('he', mail, topUp);
    expect(hebrew.subject).toMatch(/כדי לחדש את החבילה Family יש להטעין/);
    expect(hebrew.text).toContain('28 במאי 2026');
  });

  it('after a failed renewal names the grace deadline', () => {
    const mail: SubscriptionMail = {
      kind: 'renewal-failed',
      planName: 'Family',
      priceMinor: 2_500,
      missingMinor: 730,
      endDate: '2026-05-31T10:00:00.000Z',
      graceDeadline: '2026-06-03T10:00:00.000Z',
    };
    expect(subscriptionMail('en', mail, context).text).toContain('top up by June 3, 2026');
    expect(subscriptionMail('he', mail, context).text).toContain('עד 3 ביוני 2026');
  });

  it('on a lapse into the grace window: paused, the login kept until the window ends, the top-up and the renew link', () => {
    const mail: SubscriptionMail = {
      kind: 'grace-started',
      planName: 'Family',
      login: 'dana-tv',
      missingMinor: 730,
      endDate: '2026-05-31T10:00:00.000Z',
      graceEndsAt: '2026-06-03T10:00:00.000Z',
    };
    const withLinks = {
      ...context,
      link: 'https://kupa.test/payments/deposit?amountMinor=730',
      renewLink: context.link,
    };
    const english = subscriptionMail('en', mail, withLinks);
    expect(english.subject).toBe('Your Family package is paused: renew it by June 3, 2026');
    expect(english.text).toContain('since May 31, 2026 its account at the streaming service is paused');
    expect(english.text).toContain('We keep the login dana-tv for you until June 3, 2026');
    expect(english.text).toContain('$7.30 short');
    expect(english.text).toContain(`renew it from the package's page: ${context.link}`);
    expect(english.html).toContain('Top up $7.30');
    expect(english.html).toContain('amountMinor=730');
    const hebrew = subscriptionMail('he', mail, withLinks);
    expect(hebrew.subject).toBe('החבילה Family מושהית: חדשו אותה עד 3 ביוני 2026');
    expect(hebrew.text).toContain('dana-tv');
    expect(hebrew.text).toContain(context.link);
  });

  it('on a lapse with nothing missing any more, the renewal is the action', () => {
    const mail: SubscriptionMail = {
      kind: 'grace-started',
      planName: 'Family',
      login: 'dana-tv',
      missingMinor: 0,
      endDate: '2026-05-31T10:00:00.000Z',
      graceEndsAt: '2026-06-03T10:00:00.000Z',
    };
    const english = subscriptionMail('en', mail, context);
    expect(english.text).not.toContain('short');
    expect(english.html).toContain('Renew the package');
  });

  it('when it ended, says the account was switched off and the login released', () => {
    const mail: SubscriptionMail = {
      kind: 'expired',
      planName: 'Family',
      endDate: '2026-05-31T10:00:00.000Z',
      login: 'dana-tv',
    };
    expect(subscriptionMail('en', mail, context).text).toContain(
      'Its account at the streaming service is switched off and the login dana-tv released.',
    );
    expect(subscriptionMail('he', mail, context).text).toContain('שם המשתמש dana-tv שוחרר');
  });

  it('reminds of an end with a link to renew', () => {
    const mail: SubscriptionMail = {
      kind: 'ending',
      planName: null,
      endDate: '2026-05-31T10:00:00.000Z',
      recurrent: false,
    };
    const english = subscriptionMail('en', mail, context);
    expect(english.subject).toBe('Your trial ends on May 31, 2026');
    expect(english.html).toContain('Renew the package');
    expect(subscriptionMail('he', mail, context).subject).toBe('תקופת הניסיון מסתיימת ב-31 במאי 2026');
  });

  it('names the discount on a renewal only when there was one', () => {
    const base = { kind: 'renewed', planName: 'Solo', endDate: '2026-07-01T00:00:00.000Z', chargedMinor: 900 } as const;
    expect(subscriptionMail('en', { ...base, discountPercent: 10 }, context).text).toContain('10% referral discount');
    expect(subscriptionMail('en', { ...base, discountPercent: 0 }, context).text).not.toContain('discount');
  });

  it('says why a purchase was refunded when the login was taken', () => {
    const mail: SubscriptionMail = { kind: 'refunded', planName: 'Solo', refundedMinor: 1_000, loginTaken: true };
    expect(subscriptionMail('en', mail, context).text).toContain('already has an account with the login you chose');
    expect(subscriptionMail('he', mail, context).text).toContain('כבר קיים חשבון');
  });

  it('tells why a deposit could not buy or renew, that the money is on the balance, and links to the payment', () => {
    const link = 'https://kupa.test/payments/41';
    const failed: SubscriptionMail = {
      kind: 'deposit-purchase-failed',
      depositPaymentId: 41,
      planName: 'Gold',
      purchaseKind: 'BUY',
      receivedMinor: 1_250,
      errorCode: 'error.plan.no.longer.available',
    };
    const english = subscriptionMail('en', failed, { firstName: 'Dana', link });
    expect(english.subject).toBe('We could not buy your Gold package');
    expect(english.text).toContain('$12.50 arrived and is on your balance');
    expect(english.text).toContain('This package is no longer available.');
    expect(english.html).toContain('See the payment');
    expect(english.text).toContain(link);
    const hebrew = subscriptionMail('he', { ...failed, purchaseKind: 'RENEW' }, { firstName: 'Dana', link });
    expect(hebrew.subject).toBe('לא הצלחנו לחדש את החבילה Gold');
    expect(hebrew.text).toContain('החבילה הזו כבר אינה זמינה');
    expect(hebrew.html).toContain('לצפייה בתשלום');
  });

  it('names a trial as such, having no package name', () => {
    const mail: SubscriptionMail = { kind: 'expired', planName: null, endDate: '2026-01-04T00:00:00.000Z' };
    expect(subscriptionMail('en', mail, context).subject).toBe('Your trial has ended');
    expect(subscriptionMail('he', mail, context).subject).toBe('תקופת הניסיון הסתיימה');
  });

  it('escapes what the owner or staff typed (a package name) in the HTML part', () => {
    const mail: SubscriptionMail = { kind: 'expired', planName: '<b>Gold</b>', endDate: '2026-01-04T00:00:00.000Z' };
    const { html } = subscriptionMail('en', mail, context);
    expect(html).not.toContain('<b>Gold</b>');
    expect(html).toContain('&#60;b&#62;Gold');
  });
});
