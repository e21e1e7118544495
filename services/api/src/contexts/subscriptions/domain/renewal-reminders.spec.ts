import {
  dueRenewalReminder,
  graceStartedReminder,
  renewalFailedReminder,
  type ReminderSubject,
  topUpPath,
} from './renewal-reminders';

const DAY_MS = 24 * 60 * 60 * 1000;
const subscriptionId = '55555555-5555-4555-8555-555555555555';
const paymentDate = new Date('2026-04-28T09:00:00Z');
const endDate = new Date('2026-05-01T09:00:00Z');
const days = [7, 3, 1] as const;
const before = (target: Date, dayCount: number, extraMs = 0) =>
  new Date(target.getTime() - dayCount * DAY_MS + extraMs);

const renewing: ReminderSubject = {
  subscriptionId,
  endDate,
  nextPaymentDate: paymentDate,
  renewalFailed: false,
  missingMinor: 800,
};
const notRenewing: ReminderSubject = { ...renewing, nextPaymentDate: null, missingMinor: 0 };

describe('renewal reminders', () => {
  describe('given an automatic renewal the balance will not cover', () => {
    it.each([7, 3, 1])(
      'when it is %i days before the payment date, then a renewal-short reminder of that day',
      (day) => {
        expect(dueRenewalReminder(renewing, before(paymentDate, day), days)).toEqual({
          kind: 'renewal-short',
          occasionKey: `renewal-short:${subjectKey(paymentDate)}:${day}`,
          daysBefore: day,
          paymentDate,
          missingMinor: 800,
        });
      },
    );

    it('when no reminder day has come yet, then nothing', () => {
      expect(dueRenewalReminder(renewing, before(paymentDate, 7, -1), days)).toBeNull();
    });

    it('when later the same reminder day, then the same occasion (written once)', () => {
      const first = dueRenewalReminder(renewing, before(paymentDate, 7), days);
      const later = dueRenewalReminder(renewing, before(paymentDate, 4), days);
      expect(later?.occasionKey).toBe(first?.occasionKey);
    });

    it('when the sweep was down over the 7 and 3 day marks, then only the latest one reached (3), never a burst', () => {
      const reminder = dueRenewalReminder(renewing, before(paymentDate, 2), days);
      expect(reminder).toMatchObject({ kind: 'renewal-short', daysBefore: 3 });
    });

    it('when the payment date has come, then nothing (the renewal itself runs)', () => {
      expect(dueRenewalReminder(renewing, paymentDate, days)).toBeNull();
    });

    it('when a debt makes the balance negative, then the missing amount includes it', () => {
      // Price 1000, balance -300: 1300 missing, as the renewals sweep computes it.
      const reminder = dueRenewalReminder({ ...renewing, missingMinor: 1300 }, before(paymentDate, 3), days);
      expect(reminder).toMatchObject({ missingMinor: 1300 });
      expect(topUpPath(1300)).toBe('/payments/deposit?amountMinor=1300');
    });
  });

  describe('given a balance that covers the renewal (after a top-up)', () => {
    it('when a reminder day comes, then nothing: the remaining reminders stop', () => {
      expect(dueRenewalReminder({ ...renewing, missingMinor: 0 }, before(paymentDate, 3), days)).toBeNull();
      expect(dueRenewalReminder({ ...renewing, missingMinor: -50 }, before(paymentDate, 1), days)).toBeNull();
    });
  });

  describe('given a renewal that moved the payment date a period on', () => {
    it('when the new period reaches its reminder days, then new occasions', () => {
      const nextPayment = new Date('2026-05-28T09:00:00Z');
      const old = dueRenewalReminder(renewing, before(paymentDate, 7), days);
      const next = dueRenewalReminder({ ...renewing, nextPaymentDate: nextPayment }, before(nextPayment, 7), days);
      expect(next?.occasionKey).not.toBe(old?.occasionKey);
    });
  });

  describe('given a renewal of this period that already failed', () => {
    it('when a reminder day is reached, then no renewal-short: the renewal-failed reminder speaks', () => {
      expect(dueRenewalReminder({ ...renewing, renewalFailed: true }, before(paymentDate, -0.5), days)).toBeNull();
      expect(dueRenewalReminder({ ...renewing, renewalFailed: true }, before(paymentDate, 1), days)).toBeNull();
    });

    it('when the failure is recorded (every retry), then one renewal-failed occasion per period with the grace deadline', () => {
      const first = renewalFailedReminder({ subscriptionId, endDate, missingMinor: 800 }, 3);
      const retry = renewalFailedReminder({ subscriptionId, endDate, missingMinor: 700 }, 3);
      expect(first).toEqual({
        kind: 'renewal-failed',
        occasionKey: `renewal-failed:${subscriptionId}:${endDate.getTime()}`,
        missingMinor: 800,
        graceDeadline: new Date('2026-05-04T09:00:00Z'),
      });
      expect(retry.occasionKey).toBe(first.occasionKey);
      const nextPeriod = renewalFailedReminder(
        { subscriptionId, endDate: new Date('2026-06-01T09:00:00Z'), missingMinor: 800 },
        3,
      );
      expect(nextPeriod.occasionKey).not.toBe(first.occasionKey);
    });
  });

  describe('given a renewal that failed while the subscription is already in its grace window', () => {
    it('when the window is fixed, then its end is the deadline, not the end plus the configured days', () => {
      const graceEndsAt = new Date('2026-05-03T09:00:00Z');
      const reminder = renewalFailedReminder({ subscriptionId, endDate, missingMinor: 800, graceEndsAt }, 3);
      expect(reminder.graceDeadline).toEqual(graceEndsAt);
      expect(reminder.occasionKey).toBe(`renewal-failed:${subscriptionId}:${endDate.getTime()}`);
    });
  });

  describe('given a subscription that lapsed into its grace window', () => {
    const graceEndsAt = new Date('2026-05-04T09:00:00Z');

    it('when it lapses, then a grace-started reminder with the window end it lapsed with', () => {
      expect(graceStartedReminder({ subscriptionId, endDate, graceEndsAt, missingMinor: 800 })).toEqual({
        kind: 'grace-started',
        occasionKey: `grace-started:${subscriptionId}:${endDate.getTime()}`,
        missingMinor: 800,
        endDate,
        graceEndsAt,
      });
    });

    it('when the lapse is handled again (a retry), then the same occasion, so it is written once', () => {
      const first = graceStartedReminder({ subscriptionId, endDate, graceEndsAt, missingMinor: 800 });
      const retry = graceStartedReminder({ subscriptionId, endDate, graceEndsAt, missingMinor: 300 });
      expect(retry.occasionKey).toBe(first.occasionKey);
    });

    it('when a later period lapses, then a new occasion', () => {
      const first = graceStartedReminder({ subscriptionId, endDate, graceEndsAt, missingMinor: 800 });
      const later = graceStartedReminder({
        subscriptionId,
        endDate: new Date('2026-07-01T09:00:00Z'),
        graceEndsAt: new Date('2026-07-04T09:00:00Z'),
        missingMinor: 800,
      });
      expect(later.occasionKey).not.toBe(first.occasionKey);
    });

    it('when the balance already covers the renewal, then nothing is said to be missing', () => {
      expect(graceStartedReminder({ subscriptionId, endDate, graceEndsAt, missingMinor: -200 }).missingMinor).toBe(0);
    });
  });

  describe('given a subscription that will not renew by itself (not recurrent, cancelled, switched off, trial)', () => {
    it.each([7, 3, 1])('when it is %i days before the end, then an ending reminder of that day', (day) => {
      expect(dueRenewalReminder(notRenewing, before(endDate, day, 1), days)).toEqual({
        kind: 'ending',
        occasionKey: `ending:${subscriptionId}:${endDate.getTime()}:${day}`,
        daysBefore: day,
        endDate,
      });
    });

    it('when the balance is short or not, then the same ending reminder (it is about the end, not the money)', () => {
      const reminder = dueRenewalReminder({ ...notRenewing, missingMinor: 900 }, before(endDate, 3), days);
      expect(reminder).toMatchObject({ kind: 'ending', daysBefore: 3 });
    });

    it('when the end has come, then nothing', () => {
      expect(dueRenewalReminder(notRenewing, endDate, days)).toBeNull();
    });

    it('when the sweep was down past every mark, then only the last reminder day', () => {
      expect(dueRenewalReminder(notRenewing, before(endDate, 0.5), days)).toMatchObject({ daysBefore: 1 });
    });
  });
});

function subjectKey(at: Date): string {
  return `${subscriptionId}:${at.getTime()}`;
}
