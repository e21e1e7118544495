import {
  type DepositPurchaseFailedData,
  discountedPriceMinor,
  type NotificationPreferenceKind,
  PREFERENCE_KIND_OF_NOTICE,
  type SubscriptionExtendedData,
} from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { type OutboxMail } from '../../../../platform/mail';
import type { Processor } from '../../../../platform/projections';
import { fullNameOf, type UserReader } from '../../../identity';
import { type NotificationDraft, type StaffAlert, type StaffAlerts, deliverNotices } from '../../../notifications';
import { graceStartedReminder, renewalFailedReminder, topUpPath } from '../../domain/renewal-reminders';
import type { DepositPurchaseReader } from '../../application/deposit-purchase-reader';
import { renewalMissingMinor } from '../../domain/subscription.decider';
import type { SubscriptionEvent } from '../../domain/subscription.events';
import type { ReferralDiscounts } from '../../application/referral-discounts';
import type { SubscriptionMail } from './subscription-mail.templates';
import { PREFERENCE_OF_MAIL, subscriptionOutboxMail, subscriptionTelegramNotice } from './subscription-mails';

export const SUBSCRIPTION_MAILS_PROCESSOR = 'subscription-mails';

/** A mail with the person it goes to, so that their preferences can be asked before it is queued. */
interface AddressedMail {
  userUuid: string;
  preference: NotificationPreferenceKind;
  mail: OutboxMail;
}

function addressed(userUuid: string, kind: SubscriptionMail['kind'], mail: OutboxMail): AddressedMail {
  return { userUuid, preference: PREFERENCE_OF_MAIL[kind], mail };
}

interface SubscriptionRow {
  id: string;
  plan_name: string | null;
  login: string;
  end_date: Date | null;
  price_minor: number;
  list_price_minor: number;
  /** Set while in GRACE: the window's end as the lapse fixed it. */
  grace_ends_at: Date | null;
  balance_minor: string;
}

/**
 * Turns what happens to a subscription into mails to its owner (docs/product.md, Subscriptions), in the transaction
 * that moves this processor's checkpoint, with the event's position as the dedupe key: activated, renewed (what was
 * charged and the discount), ended, and refunded when
 * the streaming service refused the account. A renewal refused for a short balance is the `renewal-failed` reminder
 * (ADR 0083): how much is missing, the top-up link and the grace deadline, once per period however many retries fail,
 * as a mail and a client notification under one occasion key (in GRACE its deadline is the window's fixed end). A
 * lapse into the grace window (`SubscriptionLapsed`, ADR 0081) is the `grace-started` reminder, once per lapse, the
 * same way: paused, the login kept until `graceEndsAt`, what was missing at the lapse (the event records it) and the
 * top-up link. Days added (`SubscriptionExtended`, ADR 0089) are an `extended` notification with the reason, no mail.
 * A subscription whose provisioning failed never gets the ended mail: it
 * ends through `SubscriptionProvisioningFailed` (the refunded mail), never through `SubscriptionEnded`. The "ends
 * soon" mail is the renewal sweep's, since time, not an event, causes it. A crypto deposit whose purchase or renewal
 * failed (`DepositPurchaseFailed`, ADR 0030) tells its owner why and that the money is on the balance.
 */
export class SubscriptionMailsProcessor implements Processor {
  readonly name = SUBSCRIPTION_MAILS_PROCESSOR;
  readonly handles = [
    'SubscriptionActivated',
    'SubscriptionRenewed',
    'SubscriptionRenewalFailed',
    'SubscriptionEnded',
    'SubscriptionProvisioningFailed',
    'SubscriptionLapsed',
    'SubscriptionExtended',
    'DepositPurchaseFailed',
  ] as const;

  constructor(
    private readonly users: UserReader,
    private readonly discounts: ReferralDiscounts,
    private readonly deposits: DepositPurchaseReader,
    private readonly clock: { now(): Date },
    private readonly graceDays: number,
    private readonly staffAlerts: StaffAlerts,
  ) {}

  async handle(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    const failures = events.filter((recorded) => recorded.type === 'DepositPurchaseFailed');
    const notifications: NotificationDraft[] = [];
    const alerts: StaffAlert[] = [];
    const mails = [
      ...(await this.subscriptionMails(
        events.filter((recorded) => recorded.type !== 'DepositPurchaseFailed'),
        manager,
        notifications,
        alerts,
      )),
      ...(await this.depositPurchaseMails(failures)),
    ];
    // Each owner's preferences, once for the batch (ADR 0102): a notice only in the portal if chosen there, a mail
    // only by e-mail; the notifications and the mails in the checkpoint's transaction, under the same keys (ADR 0083).
    await deliverNotices(
      manager,
      [
        ...notifications.map((draft) => ({
          userUuid: draft.userUuid,
          preference: PREFERENCE_KIND_OF_NOTICE[draft.kind],
          portal: draft,
        })),
        // The same notice in the owner's Telegram chat when linked and chosen (ADR 0104), under the mail's key.
        ...mails.map((entry) => ({
          userUuid: entry.userUuid,
          preference: entry.preference,
          mail: entry.mail,
          telegram: subscriptionTelegramNotice(entry.userUuid, entry.mail),
        })),
      ],
      this.clock.now(),
    );
    // A provisioning that failed for good is also the staff's at once (ADR 0106), in this checkpoint's transaction.
    await this.staffAlerts.record(manager, alerts, this.clock.now());
  }

  /** One mail per failed deposit purchase: what arrived, what it was for and why that could not follow. */
  private async depositPurchaseMails(events: readonly RecordedEvent[]): Promise<AddressedMail[]> {
    if (events.length === 0) return [];
    const owners = new Map(
      (
        await this.users.findByUuids(events.map((recorded) => (recorded.data as DepositPurchaseFailedData).userUuid))
      ).map((user) => [user.uuid, user]),
    );
    const mails: AddressedMail[] = [];
    for (const recorded of events) {
      const data = recorded.data as DepositPurchaseFailedData;
      const owner = owners.get(data.userUuid);
      const deposit = await this.deposits.find(data.paymentId);
      if (!owner || !deposit) continue;
      const { purchase } = deposit;
      mails.push(
        addressed(
          owner.uuid,
          'deposit-purchase-failed',
          subscriptionOutboxMail(
            `event:${recorded.eventId}`,
            owner,
            purchase.kind === 'RENEW' ? purchase.subscriptionId : null,
            {
              kind: 'deposit-purchase-failed',
              depositPaymentId: data.paymentId,
              planName: purchase.planName,
              purchaseKind: data.kind,
              receivedMinor: data.amountReceivedMinor,
              byCard: deposit.byCard,
              errorCode: data.errorCode,
            },
          ),
        ),
      );
    }
    return mails;
  }

  /**
   * The mails of the subscription events; the reminders among them also add their notification to `notifications`,
   * and a failed provisioning its staff alert to `alerts`.
   */
  private async subscriptionMails(
    events: readonly RecordedEvent[],
    manager: EntityManager,
    notifications: NotificationDraft[],
    alerts: StaffAlert[],
  ): Promise<AddressedMail[]> {
    if (events.length === 0) return [];
    const typed = events.map((recorded) => ({
      recorded,
      event: { type: recorded.type, data: recorded.data } as SubscriptionEvent,
    }));
    const owners = new Map(
      (await this.users.findByUuids(typed.map(({ event }) => event.data.userUuid))).map((user) => [user.uuid, user]),
    );
    const rows: SubscriptionRow[] = await manager.query(
      `SELECT s.id, s.plan_name, s.login, s.end_date, s.price_minor, s.list_price_minor, s.grace_ends_at,
              COALESCE(b.balance_minor, 0)::text AS balance_minor
         FROM subscriptions s LEFT JOIN ledger_user_balances b ON b.user_uuid = s.user_uuid
        WHERE s.id = ANY($1::uuid[])`,
      [[...new Set(typed.map(({ event }) => event.data.subscriptionId))]],
    );
    const subscriptions = new Map(rows.map((row) => [row.id, row]));
    const mails: AddressedMail[] = [];
    for (const { recorded, event } of typed) {
      const owner = owners.get(event.data.userUuid);
      const subscription = subscriptions.get(event.data.subscriptionId);
      if (!owner || !subscription) continue;
      if (event.type === 'SubscriptionProvisioningFailed')
        alerts.push({
          key: `provisioning-failed:${recorded.eventId}`,
          kind: 'staff-provisioning-failed',
          params: {
            planName: subscription.plan_name,
            clientName: fullNameOf(owner) || null,
            clientProfileId: owner.profileId,
            // The streaming service's reason is not repeated: it may echo what was sent to it. Only whether the login
            // was taken, which the refunded mail tells the client too.
            loginTaken: /login\.already\.exists|LOGIN_TAKEN/.test(event.data.reason),
            refundedMinor: event.data.refundPaymentId === null ? 0 : subscription.price_minor,
            link: `/admin/subscriptions/${subscription.id}/show`,
          },
        });
      if (event.type === 'SubscriptionExtended') {
        notifications.push(extendedNotification(event.data, subscription.plan_name, owner.uuid));
        continue;
      }
      let mail = await this.mailFor(event, subscription, owner.profileId);
      if (mail?.kind === 'renewal-failed') {
        const cardFailure = await cardFailureOf(manager, subscription);
        if (cardFailure !== null) mail = { ...mail, cardFailure };
      }
      if (mail?.kind === 'renewal-failed') {
        const reminder = renewalFailedReminder(
          {
            subscriptionId: subscription.id,
            endDate: new Date(mail.endDate),
            missingMinor: mail.missingMinor,
            // Already in GRACE: the window's end is known, the configured days may have changed since.
            graceEndsAt: subscription.grace_ends_at,
          },
          this.graceDays,
        );
        const sent = { ...mail, graceDeadline: reminder.graceDeadline.toISOString() };
        mails.push(
          addressed(owner.uuid, sent.kind, subscriptionOutboxMail(reminder.occasionKey, owner, subscription.id, sent)),
        );
        notifications.push({
          occasionKey: reminder.occasionKey,
          userUuid: owner.uuid,
          kind: 'renewal-failed',
          params: {
            subscriptionId: subscription.id,
            planName: sent.planName,
            missingMinor: sent.missingMinor,
            graceDeadline: sent.graceDeadline,
            endDate: sent.endDate,
            link: topUpPath(sent.missingMinor),
            ...(sent.cardFailure ? { cardFailure: sent.cardFailure } : {}),
          },
        });
      } else if (mail?.kind === 'grace-started') {
        const reminder = graceStartedReminder({
          subscriptionId: subscription.id,
          endDate: new Date(mail.endDate),
          graceEndsAt: new Date(mail.graceEndsAt),
          missingMinor: mail.missingMinor,
        });
        const sent = { ...mail, missingMinor: reminder.missingMinor };
        mails.push(
          addressed(owner.uuid, sent.kind, subscriptionOutboxMail(reminder.occasionKey, owner, subscription.id, sent)),
        );
        notifications.push({
          occasionKey: reminder.occasionKey,
          userUuid: owner.uuid,
          kind: 'grace-started',
          params: {
            subscriptionId: subscription.id,
            planName: sent.planName,
            missingMinor: sent.missingMinor,
            graceDeadline: sent.graceEndsAt,
            endDate: sent.endDate,
            link: sent.missingMinor > 0 ? topUpPath(sent.missingMinor) : `/subscriptions/${subscription.id}`,
          },
        });
      } else if (mail)
        mails.push(
          addressed(
            owner.uuid,
            mail.kind,
            subscriptionOutboxMail(`event:${recorded.eventId}`, owner, event.data.subscriptionId, mail),
          ),
        );
    }
    return mails;
  }

  private async mailFor(
    event: SubscriptionEvent,
    subscription: SubscriptionRow,
    ownerProfileId: string,
  ): Promise<SubscriptionMail | null> {
    const planName = subscription.plan_name;
    switch (event.type) {
      case 'SubscriptionActivated':
        return { kind: 'activated', planName, login: subscription.login, endDate: event.data.endDate };
      case 'SubscriptionRenewed':
        return {
          kind: 'renewed',
          planName,
          endDate: event.data.endDate,
          chargedMinor: event.data.priceMinor,
          discountPercent: event.data.discountPercent,
        };
      case 'SubscriptionRenewalFailed': {
        // What the renewal costs: the price as bought less the owner's referral discount, as the sweep charged it.
        const percent = await this.discounts.percentFor(ownerProfileId);
        // The grace deadline is filled in from the end date by the caller.
        return {
          kind: 'renewal-failed',
          planName,
          priceMinor: discountedPriceMinor(subscription.list_price_minor, percent),
          missingMinor: event.data.missingMinor,
          endDate: subscription.end_date?.toISOString() ?? event.data.nextAttemptAt,
          graceDeadline: '',
        };
      }
      case 'SubscriptionLapsed': {
        // What was missing at the lapse, as the lapse recorded it; a lapse recorded before it did (issue 31) is
        // counted from the balance now: the renewal as the sweep charges it less the balance.
        const missingMinor =
          event.data.missingMinor ??
          renewalMissingMinor(
            subscription.list_price_minor,
            await this.discounts.percentFor(ownerProfileId),
            Number(subscription.balance_minor),
          );
        return {
          kind: 'grace-started',
          planName,
          login: subscription.login,
          missingMinor,
          endDate: event.data.endDate,
          graceEndsAt: event.data.graceEndsAt,
        };
      }
      case 'SubscriptionEnded':
        return {
          kind: 'expired',
          planName,
          endDate: subscription.end_date?.toISOString() ?? event.data.endedAt,
          login: subscription.login,
        };
      case 'SubscriptionProvisioningFailed':
        return {
          kind: 'refunded',
          planName,
          refundedMinor: event.data.refundPaymentId === null ? 0 : subscription.price_minor,
          loginTaken: /login\.already\.exists|LOGIN_TAKEN/.test(event.data.reason),
        };
      default:
        return null;
    }
  }
}

/**
 * Days added to a subscription (ADR 0089, issue 32): told to its owner in the portal with the reason, never who added
 * them; no mail. The key is the extension's own (an idempotency key adds the days once), so a retried batch tells once.
 */
export function extendedNotification(
  data: SubscriptionExtendedData,
  planName: string | null,
  userUuid: string,
): NotificationDraft {
  return {
    occasionKey: `extended:${data.subscriptionId}:${data.idempotencyKey}`,
    userUuid,
    kind: 'extended',
    params: {
      subscriptionId: data.subscriptionId,
      planName,
      days: data.days,
      reason: data.reason,
      source: data.source,
      endDate: data.endDate,
      link: `/subscriptions/${data.subscriptionId}`,
    },
  };
}

/**
 * Why the saved card did not pay for the period that now failed to renew (docs/adr/0086-renewals-charged-to-the-saved-
 * card.md): the last card attempt for the subscription's current end date that was declined or wanted its holder;
 * null when no card was tried for it.
 */
async function cardFailureOf(
  manager: EntityManager,
  subscription: SubscriptionRow,
): Promise<'DECLINED' | 'REQUIRES_ACTION' | null> {
  if (subscription.end_date === null) return null;
  const rows: Array<{ outcome: 'DECLINED' | 'REQUIRES_ACTION' }> = await manager.query(
    `SELECT f.data->>'outcome' AS outcome FROM events f
       JOIN events s ON s.stream_id = f.stream_id AND s.type = 'SubscriptionCardRenewalStarted'
        AND s.data->>'attemptId' = f.data->>'attemptId'
      WHERE f.stream_id = $1 AND f.type = 'SubscriptionCardRenewalFailed'
        AND f.data->>'outcome' IN ('DECLINED', 'REQUIRES_ACTION') AND s.data->>'periodEndDate' = $2
      ORDER BY f.stream_version DESC LIMIT 1`,
    [`subscription-${subscription.id}`, new Date(subscription.end_date).toISOString()],
  );
  return rows[0]?.outcome ?? null;
}
