import type { DataSource } from 'typeorm';
import type { Clock } from '../../../../platform/clock';
import type { Sweep, SweepPass } from '../../../../platform/jobs';
import type { UserReader, UserView } from '../../../identity';
import { deliverNotices, preferencesOf, reminderDaysFor } from '../../../notifications';
import type { ReferralDiscounts } from '../../application/referral-discounts';
import { dueRenewalReminder, type RenewalReminder, topUpPath } from '../../domain/renewal-reminders';
import { renewalChargeDate } from '../../domain/subscription-periods';
import { renewalMissingMinor } from '../../domain/subscription.decider';
import {
  PREFERENCE_OF_MAIL,
  subscriptionOutboxMail,
  subscriptionTelegramNotice,
} from '../subscription-mails/subscription-mails';
import type { SubscriptionMail } from '../subscription-mails/subscription-mail.templates';

export const RENEWAL_REMINDERS_SWEEP = 'renewal-reminders';
/** Subscriptions read per page of a pass (the pass goes on page by page until none is left in the window). */
export const RENEWAL_REMINDERS_PAGE = 100;
/** How often the sweep looks: reminder days fall due by the day, a minute late is nothing. */
export const RENEWAL_REMINDERS_INTERVAL_MS = 60_000;

interface Candidate {
  id: string;
  user_uuid: string;
  plan_name: string | null;
  end_date: Date;
  next_payment_date: Date | null;
  list_price_minor: number;
  is_recurrent: boolean;
  balance_minor: string;
}

/**
 * The renewal reminders (docs/product.md, Notifications; docs/adr/0083-notifications-and-reminders.md), caused by
 * time passing: each pass reads the live subscriptions whose automatic payment date, or whose end when they will not
 * renew by themselves, is within the largest reminder day of the injected clock's now, asks the pure rule
 * (`dueRenewalReminder`) which reminder is due, and writes its notification and mail in one transaction under the
 * occasion key. Both are unique by that key, so two passes at once, or a pass run again after a crash, tell the
 * client once. The reminder after a failed renewal is the subscription mails processor's: an event causes it.
 */
export class RenewalRemindersSweep implements Sweep {
  readonly name = RENEWAL_REMINDERS_SWEEP;

  constructor(
    private readonly dataSource: DataSource,
    private readonly discounts: ReferralDiscounts,
    private readonly users: UserReader,
    private readonly clock: Clock,
    private readonly reminderDays: readonly number[],
    readonly intervalMs: number = RENEWAL_REMINDERS_INTERVAL_MS,
  ) {}

  async sweep(): Promise<SweepPass> {
    const now = this.clock.now();
    const horizonDays = await this.horizonDays();
    let acted = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const page = await this.candidates(now, horizonDays, after);
      // The owners' lead days, once per page (ADR 0102).
      const preferences = await preferencesOf(
        this.dataSource.manager,
        page.map((candidate) => candidate.user_uuid),
      );
      for (const candidate of page) {
        const leadDays = preferences.get(candidate.user_uuid)?.leadDays ?? null;
        if (await this.remindOne(candidate, now, reminderDaysFor(this.reminderDays, leadDays))) acted += 1;
      }
      if (page.length < RENEWAL_REMINDERS_PAGE) break;
      after = page[page.length - 1].id;
    }
    return { acted, more: false };
  }

  /** How far ahead to look: the installation's largest reminder day, or a person's longer lead (ADR 0102). */
  private async horizonDays(): Promise<number> {
    const [{ lead_days }]: Array<{ lead_days: number | null }> = await this.dataSource.query(
      'SELECT max(lead_days) AS lead_days FROM notification_preferences',
    );
    return Math.max(0, ...this.reminderDays, lead_days ?? 0);
  }

  private candidates(now: Date, horizonDays: number, after: string): Promise<Candidate[]> {
    return this.dataSource.query(
      `SELECT s.id, s.user_uuid, s.plan_name, s.end_date, s.next_payment_date, s.list_price_minor, s.is_recurrent,
              COALESCE(b.balance_minor, 0)::text AS balance_minor
         FROM subscriptions s LEFT JOIN ledger_user_balances b ON b.user_uuid = s.user_uuid
        WHERE s.status IN ('ACTIVE', 'UNSUBSCRIBED') AND s.end_date > $1 AND s.id > $3
          AND COALESCE(s.next_payment_date, s.end_date) <= $1 + make_interval(days => $2::int)
        ORDER BY s.id LIMIT $4`,
      [now, horizonDays, after, RENEWAL_REMINDERS_PAGE],
    );
  }

  /** Writes the reminder due for one subscription, if any; whether a new one was written. */
  private async remindOne(candidate: Candidate, now: Date, reminderDays: readonly number[]): Promise<boolean> {
    const [owner] = await this.users.findByUuids([candidate.user_uuid]);
    if (!owner) return false;
    const nextPaymentDate = candidate.next_payment_date;
    const missingMinor = nextPaymentDate === null ? 0 : await this.missingMinor(candidate, owner);
    const reminder = dueRenewalReminder(
      {
        subscriptionId: candidate.id,
        endDate: candidate.end_date,
        nextPaymentDate,
        // A failed renewal moves the payment date past the renewal lead to its next attempt.
        renewalFailed:
          nextPaymentDate !== null && nextPaymentDate.getTime() > renewalChargeDate(candidate.end_date).getTime(),
        missingMinor,
      },
      now,
      reminderDays,
    );
    if (reminder === null) return false;
    const { mail, link } = this.mailOf(reminder, candidate);
    return this.dataSource.transaction(async (manager) => {
      // Each form goes to the owner's channels for this mail's kind (ADR 0102), Telegram under the same occasion key
      // (ADR 0104); the occasion key stays the claim even when no channel is chosen.
      const outboxMail = subscriptionOutboxMail(reminder.occasionKey, owner, candidate.id, mail);
      const written = await deliverNotices(
        manager,
        [
          {
            userUuid: owner.uuid,
            preference: PREFERENCE_OF_MAIL[mail.kind],
            portal: {
              occasionKey: reminder.occasionKey,
              userUuid: owner.uuid,
              kind: reminder.kind,
              params: { ...paramsOf(mail), subscriptionId: candidate.id, planName: candidate.plan_name, link },
            },
            mail: outboxMail,
            telegram: subscriptionTelegramNotice(owner.uuid, outboxMail),
          },
        ],
        now,
      );
      return written > 0;
    });
  }

  /** As the renewals sweep computes it: the price as bought less the owner's discount, minus the balance (a debt adds). */
  private async missingMinor(candidate: Candidate, owner: UserView): Promise<number> {
    const percent = await this.discounts.percentFor(owner.profileId);
    return renewalMissingMinor(candidate.list_price_minor, percent, Number(candidate.balance_minor));
  }

  private mailOf(reminder: RenewalReminder, candidate: Candidate): { mail: SubscriptionMail; link: string } {
    if (reminder.kind === 'renewal-short')
      return {
        mail: {
          kind: 'renewal-short',
          planName: candidate.plan_name,
          missingMinor: reminder.missingMinor,
          paymentDate: reminder.paymentDate.toISOString(),
        },
        link: topUpPath(reminder.missingMinor),
      };
    return {
      mail: {
        kind: 'ending',
        planName: candidate.plan_name,
        endDate: reminder.endDate.toISOString(),
        recurrent: candidate.is_recurrent,
      },
      link: `/subscriptions/${candidate.id}`,
    };
  }
}

function paramsOf(mail: SubscriptionMail): { missingMinor?: number; paymentDate?: string; endDate?: string } {
  if (mail.kind === 'renewal-short') return { missingMinor: mail.missingMinor, paymentDate: mail.paymentDate };
  if (mail.kind === 'ending') return { endDate: mail.endDate };
  return {};
}
