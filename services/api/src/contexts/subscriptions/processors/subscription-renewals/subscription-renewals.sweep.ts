import { Logger } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import type { DataSource } from 'typeorm';
import { DomainError } from '../../../../kernel';
import { systemContext } from '../../../../platform/auth';
import type { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import type { Sweep, SweepPass } from '../../../../platform/jobs';
import { discountedPriceMinor, type RenewalFunding } from '@kupa/proto';
import type { UserReader } from '../../../identity';
import { type RenewalPassCounts, renewalPassAlertDue, type StaffAlerts } from '../../../notifications';
import type { CardRenewals } from '../../application/card-renewals';
import { addDays } from '../../domain/subscription-periods';
import { renewalMissingMinor } from '../../domain/subscription.decider';
import type { ReferralDiscounts } from '../../application/referral-discounts';
import { EndSubscriptionCommand } from '../../commands/end-subscription/end-subscription.command';
import { RecordRenewalFailureCommand } from '../../commands/record-renewal-failure/record-renewal-failure.command';
import { RenewSubscriptionCommand } from '../../commands/renew-subscription/renew-subscription.command';

export const SUBSCRIPTION_RENEWALS_SWEEP = 'subscription-renewals';
/** Subscriptions looked at per kind of work and pass; a full batch asks for another pass at once. */
export const SUBSCRIPTION_RENEWALS_BATCH = 50;
/** How often the sweep runs, once across the fleet: renewals and ends fall due by the day, a minute late is nothing. */
export const SUBSCRIPTION_RENEWALS_INTERVAL_MS = 60_000;
/** After a short balance, the next automatic attempt (never after the end, or in GRACE the window's end). */
export const RENEWAL_RETRY_DAYS = 1;
/** A card renewal pending at the provider this long is read back from it, in case its webhook was lost. */
export const CARD_RENEWAL_JANITOR_AFTER_MS = 5 * 60_000;

/** The codes that mean another pass (or the owner) already did what this pass meant to do. */
const ALREADY_DONE = new Set([
  'error.subscription.already.renewed',
  'error.subscription.not.renewable',
  'error.subscription.ended',
]);

interface DueRenewal {
  id: string;
  user_uuid: string;
  list_price_minor: number;
  end_date: Date;
  /** Set in GRACE: the attempts go on until the window closes instead of the end date. */
  grace_ends_at: Date | null;
  /** How the renewal is paid (ADR 0085): anything but BALANCE tries the saved card first (ADR 0086). */
  renewal_funding: RenewalFunding;
}

/**
 * Renewals and expiries, caused by time passing (docs/product.md, Subscriptions; ADR 0012's sweeps addendum; ADR
 * 0024). Each pass asks the subscriptions read model what is due at the injected clock's now:
 * - recurrent ACTIVE subscriptions nobody cancelled or switched off whose next payment date has come are renewed from
 *   the balance (`automatic`); when the balance is short the failure is recorded with the amount missing and the
 *   next attempt a day later (never after the end). A subscription whose end already passed (the sweep was down) is
 *   still renewed when the balance allows, else it just ends;
 * - subscriptions in their grace window (GRACE, ADR 0081) are charged the same way at the same cadence until the
 *   window closes, so a top-up brings one back without its owner pressing anything;
 * - every running subscription whose end date has come ends (one that renews by itself lapses into GRACE, else
 *   EXPIRED, or CANCELED when cancelled), and every GRACE one whose window closed ends EXPIRED.
 * The reminders before a renewal or an end are the renewal reminders sweep's (processors/renewal-reminders/).
 * Two passes at once are harmless: the renewal window refuses a second renewal, a failure while the next attempt is
 * ahead records nothing, and an ended subscription does not end twice.
 */
export class SubscriptionRenewalsSweep implements Sweep {
  readonly name = SUBSCRIPTION_RENEWALS_SWEEP;
  private readonly logger = new Logger('SubscriptionRenewals');

  constructor(
    private readonly dataSource: DataSource,
    private readonly commands: CommandBus,
    private readonly discounts: ReferralDiscounts,
    private readonly users: UserReader,
    private readonly clock: Clock,
    private readonly cardRenewals: CardRenewals | null = null,
    readonly intervalMs: number = SUBSCRIPTION_RENEWALS_INTERVAL_MS,
    private readonly staffAlerts: StaffAlerts | null = null,
  ) {}

  async sweep(): Promise<SweepPass> {
    const now = this.clock.now();
    const pending = await this.checkCardRenewals(now);
    const renewals = await this.renewDue(now);
    const ends = await this.endDue(now);
    await this.tellStaff(renewals.counts, now);
    const full = [pending, renewals, ends].some((step) => step.seen === SUBSCRIPTION_RENEWALS_BATCH && step.acted > 0);
    return { acted: pending.acted + renewals.acted + ends.acted, more: full };
  }

  /**
   * A pass whose renewals failed (a short balance recorded, or an error) is one staff alert with its counts (ADR
   * 0106), keyed by the pass's instant: the pass is the fact. A pass repeated finds the failures already recorded
   * (the next attempt is a day ahead) and tells nothing.
   */
  private async tellStaff(counts: RenewalPassCounts, now: Date): Promise<void> {
    if (this.staffAlerts === null || !renewalPassAlertDue(counts)) return;
    const staffAlerts = this.staffAlerts;
    await this.dataSource.transaction((manager) =>
      staffAlerts.record(
        manager,
        [
          {
            key: `renewal-pass:${now.toISOString()}`,
            kind: 'staff-renewals-failed',
            params: {
              renewedCount: counts.renewed,
              shortCount: counts.short,
              erroredCount: counts.errored,
              link: '/admin/subscriptions',
            },
          },
        ],
        now,
      ),
    );
  }

  private async renewDue(now: Date): Promise<{ seen: number; acted: number; counts: RenewalPassCounts }> {
    const due: DueRenewal[] = await this.dataSource.query(
      `SELECT id, user_uuid, list_price_minor, end_date, grace_ends_at, renewal_funding FROM subscriptions
        WHERE next_payment_date <= $1 AND status IN ('ACTIVE', 'GRACE') AND is_recurrent AND NOT cancel_at_period_end
          AND NOT recurrence_deactivated
        ORDER BY next_payment_date, id LIMIT $2`,
      [now, SUBSCRIPTION_RENEWALS_BATCH],
    );
    const counts: RenewalPassCounts = { renewed: 0, short: 0, errored: 0 };
    for (const subscription of due) {
      const outcome = await this.renewOne(subscription, now);
      if (outcome !== 'NONE') counts[outcome] += 1;
    }
    return { seen: due.length, acted: counts.renewed + counts.short, counts };
  }

  /**
   * Renews one subscription, or records why not: renewed, a short balance recorded, an unexpected error (logged), or
   * nothing changed.
   */
  private async renewOne(subscription: DueRenewal, now: Date): Promise<keyof RenewalPassCounts | 'NONE'> {
    const context = systemContext();
    if (subscription.renewal_funding !== 'BALANCE' && this.cardRenewals !== null) {
      const card = await this.renewByCard(subscription);
      if (card === 'RENEWED') return 'renewed';
      // An attempt open at the provider, or already done: the subscription is left alone this pass.
      if (card !== 'BALANCE') return 'NONE';
    }
    try {
      await this.commands.execute(new RenewSubscriptionCommand(null, subscription.id, context));
      return 'renewed';
    } catch (error) {
      const code = errorCode(error);
      if (code !== null && ALREADY_DONE.has(code)) return 'NONE';
      if (code !== 'error.insufficient.balance') {
        this.logger.warn(`Subscription ${subscription.id} could not be renewed: ${String(error)}`);
        return 'errored';
      }
    }
    // Attempts go on to the end, or in GRACE to the window's end; past it the end step lapses or ends it.
    const lastAttempt = subscription.grace_ends_at ?? subscription.end_date;
    if (lastAttempt.getTime() <= now.getTime()) return 'NONE';
    const missingMinor = await this.missingMinor(subscription);
    // Topped up since the attempt: the next pass renews it.
    if (missingMinor <= 0) return 'NONE';
    const nextAttempt = addDays(now, RENEWAL_RETRY_DAYS);
    try {
      const nextAttemptAt = nextAttempt < lastAttempt ? nextAttempt : lastAttempt;
      await this.commands.execute(
        new RecordRenewalFailureCommand(subscription.id, missingMinor, nextAttemptAt, context),
      );
      return 'short';
    } catch (error) {
      const code = errorCode(error);
      if (code !== null && ALREADY_DONE.has(code)) return 'NONE';
      this.logger.warn(`Renewal failure of ${subscription.id} not recorded: ${String(error)}`);
      return 'errored';
    }
  }

  /**
   * The saved card first (docs/adr/0086-renewals-charged-to-the-saved-card.md): for CARD the whole price, for
   * BALANCE_THEN_CARD what the balance lacks. A provider that does not answer leaves the attempt open for the next
   * pass, which sends the same key.
   */
  private async renewByCard(subscription: DueRenewal): Promise<string> {
    if (this.cardRenewals === null) return 'BALANCE';
    const { percent, balanceMinor } = await this.priceFacts(subscription);
    try {
      return await this.cardRenewals.renew(
        {
          subscriptionId: subscription.id,
          userUuid: subscription.user_uuid,
          funding: subscription.renewal_funding,
          priceMinor: discountedPriceMinor(subscription.list_price_minor, percent),
          balanceMinor,
        },
        systemContext(),
      );
    } catch (error) {
      this.logger.warn(`The card renewal of ${subscription.id} did not go through: ${String(error)}`);
      return 'WAITING';
    }
  }

  /**
   * The lost-webhook janitor: card renewals pending at the provider for a few minutes are read back from it and
   * concluded; the webhook that concludes them first makes this a no-op.
   */
  private async checkCardRenewals(now: Date): Promise<{ seen: number; acted: number }> {
    if (this.cardRenewals === null) return { seen: 0, acted: 0 };
    const open: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM subscriptions WHERE card_renewal_open_since <= $1 ORDER BY card_renewal_open_since, id LIMIT $2`,
      [new Date(now.getTime() - CARD_RENEWAL_JANITOR_AFTER_MS), SUBSCRIPTION_RENEWALS_BATCH],
    );
    let acted = 0;
    for (const { id } of open) {
      try {
        if (await this.cardRenewals.checkOpen(id, systemContext())) acted += 1;
      } catch (error) {
        this.logger.warn(`The card renewal of ${id} could not be read back: ${String(error)}`);
      }
    }
    return { seen: open.length, acted };
  }

  /** What the renewal costs now (the price as bought less the owner's discount) minus the owner's balance. */
  private async missingMinor(subscription: DueRenewal): Promise<number> {
    const { percent, balanceMinor } = await this.priceFacts(subscription);
    return renewalMissingMinor(subscription.list_price_minor, percent, balanceMinor);
  }

  private async priceFacts(subscription: DueRenewal): Promise<{ percent: number; balanceMinor: number }> {
    const [owner] = await this.users.findByUuids([subscription.user_uuid]);
    const percent = owner ? await this.discounts.percentFor(owner.profileId) : 0;
    const rows: Array<{ balance_minor: string }> = await this.dataSource.query(
      'SELECT balance_minor::text AS balance_minor FROM ledger_user_balances WHERE user_uuid = $1',
      [subscription.user_uuid],
    );
    return { percent, balanceMinor: Number(rows[0]?.balance_minor ?? 0) };
  }

  private async endDue(now: Date): Promise<{ seen: number; acted: number }> {
    const due: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM subscriptions
        WHERE (status IN ('ACTIVE', 'UNSUBSCRIBED') AND end_date <= $1) OR (status = 'GRACE' AND grace_ends_at <= $1)
        ORDER BY COALESCE(grace_ends_at, end_date), id LIMIT $2`,
      [now, SUBSCRIPTION_RENEWALS_BATCH],
    );
    let acted = 0;
    for (const { id } of due) {
      try {
        await this.commands.execute(new EndSubscriptionCommand(id, systemContext()));
        acted += 1;
      } catch (error) {
        this.logger.warn(`Subscription ${id} could not be ended: ${String(error)}`);
      }
    }
    return { seen: due.length, acted };
  }
}

function errorCode(error: unknown): string | null {
  if (error instanceof DomainError || error instanceof ApiError) return error.code;
  return null;
}
