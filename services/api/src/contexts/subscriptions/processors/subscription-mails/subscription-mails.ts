import { Inject, Injectable } from '@nestjs/common';
import type { Language, NotificationPreferenceKind } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import type { MailKind, OutboxMail, RenderedMail, StoredMail } from '../../../../platform/mail';
import type { UserView } from '../../../identity';
import type { TelegramNotice, TelegramNoticeKind } from '../../../notifications';
import { topUpPath } from '../../domain/renewal-reminders';
import { type SubscriptionMail, subscriptionMail } from './subscription-mail.templates';

/** The outbox kinds, one per mail: `subscription.renewed`, `subscription.expiring`, … */
export const SUBSCRIPTION_MAIL_KINDS = [
  'activated',
  'renewed',
  'balance-too-low',
  'expiring',
  'expired',
  'refunded',
  'deposit-purchase-failed',
  'renewal-short',
  'renewal-failed',
  'ending',
  'grace-started',
].map((kind) => `subscription.${kind}`);

/** Which preference decides each subscription mail (docs/adr/0102-notification-preferences.md). */
export const PREFERENCE_OF_MAIL: Readonly<Record<SubscriptionMail['kind'], NotificationPreferenceKind>> = Object.freeze(
  {
    activated: 'subscription-status',
    renewed: 'renewal-results',
    'balance-too-low': 'renewal-reminders',
    expiring: 'renewal-reminders',
    'renewal-short': 'renewal-reminders',
    'renewal-failed': 'renewal-reminders',
    ending: 'renewal-reminders',
    'grace-started': 'renewal-reminders',
    expired: 'subscription-status',
    refunded: 'subscription-status',
    'deposit-purchase-failed': 'payments',
  },
);

/** What a subscription mail carries in the outbox: everything it says, fixed when it was recorded. */
export interface SubscriptionMailPayload {
  /** Null for a deposit's purchase that failed before any subscription existed. */
  subscriptionId: string | null;
  firstName: string;
  mail: SubscriptionMail;
}

/** An outbox row for the owner of a subscription, in the owner's language, to the owner's address of the moment. */
export function subscriptionOutboxMail(
  dedupeKey: string,
  owner: UserView,
  subscriptionId: string | null,
  mail: SubscriptionMail,
): OutboxMail {
  const payload: SubscriptionMailPayload = { subscriptionId, firstName: owner.firstName, mail };
  return {
    dedupeKey,
    kind: `subscription.${mail.kind}`,
    recipient: owner.email,
    language: owner.language,
    payload: { ...payload },
  };
}

/** The mails that also go to Telegram, by the same kind name (docs/adr/0104-telegram-delivery.md). */
const TELEGRAM_KIND_OF_MAIL: Partial<Record<SubscriptionMail['kind'], TelegramNoticeKind>> = {
  activated: 'activated',
  renewed: 'renewed',
  'renewal-short': 'renewal-short',
  'renewal-failed': 'renewal-failed',
  ending: 'ending',
  'grace-started': 'grace-started',
  expired: 'expired',
  refunded: 'refunded',
  'deposit-purchase-failed': 'deposit-purchase-failed',
};

/** Where a subscription mail's link leads in the portal: the path, which the mail and Telegram make absolute. */
export function portalPathOf(mail: SubscriptionMail, subscriptionId: string | null): string {
  if (mail.kind === 'deposit-purchase-failed') return `/payments/${mail.depositPaymentId}`;
  if (mail.kind === 'renewal-short' || mail.kind === 'renewal-failed') return topUpPath(mail.missingMinor);
  if (mail.kind === 'grace-started' && mail.missingMinor > 0) return topUpPath(mail.missingMinor);
  return `/subscriptions/${subscriptionId}`;
}

/**
 * The Telegram message of a subscription mail: the same facts and link, to the owner, under the mail's dedupe key
 * (once per event and channel). Null for the old kinds no writer records any more.
 */
export function subscriptionTelegramNotice(userUuid: string, outboxMail: OutboxMail): TelegramNotice | null {
  const { subscriptionId, mail } = outboxMail.payload as unknown as SubscriptionMailPayload;
  const kind = TELEGRAM_KIND_OF_MAIL[mail.kind];
  if (!kind) return null;
  const { kind: _mailKind, ...facts } = mail;
  return {
    dedupeKey: outboxMail.dedupeKey,
    userUuid,
    kind,
    params: { ...facts, link: portalPathOf(mail, subscriptionId) },
    language: outboxMail.language,
  };
}

/**
 * The subscription mails as the dispatcher renders them, with the link to the subscription in the client app (no
 * token: a retry may send the first rendering for good). The "ends soon" mail is skipped when, by the time an attempt
 * goes out, the subscription was renewed (its end moved) or ended.
 */
@Injectable()
export class SubscriptionMails {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  kinds(): MailKind[] {
    return SUBSCRIPTION_MAIL_KINDS.map((name) => ({
      name,
      stillWanted: (mail, manager) => this.stillWanted(mail, manager),
      render: async (mail) => this.render(mail),
    }));
  }

  private async stillWanted(stored: StoredMail, manager: EntityManager): Promise<boolean> {
    const { subscriptionId, mail } = stored.payload as unknown as SubscriptionMailPayload;
    // An end reminder whose subscription was renewed (its end moved) or ended before the mail went out is dropped.
    if (mail.kind === 'expiring' || mail.kind === 'ending')
      return this.stillEndsOn(manager, subscriptionId ?? '', mail.endDate);
    return true;
  }

  private render(stored: StoredMail): RenderedMail {
    const { subscriptionId, firstName, mail } = stored.payload as unknown as SubscriptionMailPayload;
    const renewLink = subscriptionId === null ? undefined : `${this.config.publicUrl}/subscriptions/${subscriptionId}`;
    return subscriptionMail(languageOf(stored), mail, {
      firstName,
      link: this.linkOf(mail, subscriptionId),
      renewLink,
    });
  }

  /** A failed deposit purchase links to its payment, a short balance to the top-up of what is missing. */
  private linkOf(mail: SubscriptionMail, subscriptionId: string | null): string {
    return `${this.config.publicUrl}${portalPathOf(mail, subscriptionId)}`;
  }

  private async stillEndsOn(manager: EntityManager, subscriptionId: string, endDate: string): Promise<boolean> {
    const rows: Array<{ end_date: Date | null; status: string }> = await manager.query(
      'SELECT end_date, status FROM subscriptions WHERE id = $1',
      [subscriptionId],
    );
    const row = rows[0];
    return (
      row !== undefined &&
      row.end_date?.getTime() === new Date(endDate).getTime() &&
      (row.status === 'ACTIVE' || row.status === 'UNSUBSCRIBED')
    );
  }
}

function languageOf(mail: StoredMail): Language {
  return mail.language === 'en' ? 'en' : 'he';
}
