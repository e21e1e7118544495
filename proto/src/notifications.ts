import type { PaymentMethod, SubscriptionExtensionSource } from './enums';
import type { Page } from './payloads';

/**
 * The client's notifications (docs/product.md, Notifications; ADR 0083): each reminder the client was sent, kept
 * with what it said, so the client portal lists it (read or not) and staff see what a client was told.
 */
export const NOTIFICATION_KINDS = [
  'renewal-short',
  'renewal-failed',
  'ending',
  'grace-started',
  // An admin's broadcast (ADR 0091): its subject and body in the client's language, no subscription.
  'announcement',
  // Staff, a bulk operation or a voucher added days to a subscription (ADR 0089): how many and why.
  'extended',
  // A sign-in from a device not seen before for this user (ADR 0099): which device, where from, and the end link.
  'new-device',
  // Money reached the balance by crypto, card or a manual deposit (ADR 0105): how much, how, the payment.
  'deposit-credited',
  // Another client sent money to this balance (ADR 0105): how much, from whom as the payment's page names them.
  'transfer-received',
  // The balance fell under the person's threshold (ADR 0102, 0105): the balance, the threshold, the top-up link.
  'low-balance',
  // Staff rejected the client's manual-transfer claim (ADR 0112): the amount claimed and their reason.
  'deposit-claim-rejected',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What a notification says, fixed when it was sent; amounts in cents, dates ISO instants. */
export interface NotificationParams {
  /** The reminders' subscription; an announcement has none. */
  subscriptionId?: string;
  /** Null for the trial; an announcement has none. */
  planName?: string | null;
  /** `announcement`: the broadcast, and what it said in the client's language. */
  broadcastId?: string;
  subject?: string;
  body?: string;
  /** `renewal-short`, `renewal-failed`, `grace-started`: what the balance lacks for the renewal (a debt included). */
  missingMinor?: number;
  /** `renewal-short`: when the automatic renewal charges the balance. */
  paymentDate?: string;
  /** `renewal-failed`, `grace-started`: until when the subscription can still be recovered (its login kept). */
  graceDeadline?: string;
  /** `ending`: when it ends; `renewal-failed`, `grace-started`: the unpaid period's end; `extended`: the new end. */
  endDate?: string;
  /**
   * `renewal-failed`: the saved card was tried first and failed (docs/adr/0086-renewals-charged-to-the-saved-card.md):
   * declined, or its bank wants the holder to pay on-session. Absent when no card was tried for the period.
   */
  cardFailure?: 'DECLINED' | 'REQUIRES_ACTION';
  /** `extended`: the days added to the subscription without a payment (ADR 0089). */
  days?: number;
  /** `extended`: why, in the words staff chose for the client (a day voucher's label for VOUCHER); `deposit-claim-rejected`: why staff rejected the claim. */
  reason?: string;
  /** `extended`: how the days were given; VOUCHER reads "voucher ⟨label⟩". */
  source?: SubscriptionExtensionSource;
  /** `new-device`: the session that signed in, its browser and system, and the address it came from. */
  sessionId?: string;
  device?: string;
  ipAddress?: string | null;
  /** `new-device`: the country of that address (ADR 0101); null or absent when not known. */
  countryCode?: string | null;
  /** `deposit-credited`, `transfer-received`: the money that arrived, in cents; `deposit-claim-rejected`: the amount claimed. */
  amountMinor?: number;
  /** `deposit-credited`: how it arrived (a crypto coin, a card, a manual transfer). */
  method?: PaymentMethod;
  /** `deposit-credited`, `transfer-received`: the client's own payment that recorded it. */
  paymentId?: number;
  /**
   * `transfer-received`: the sender as the payment's page names them (ADR 0077): their name as they entered it, null
   * when they entered none, and their profile ID. Never their e-mail.
   */
  senderName?: string | null;
  senderProfileId?: string;
  /** `low-balance`: the balance after the change that took it under the threshold, and the threshold then. */
  balanceMinor?: number;
  thresholdMinor?: number;
  /** Where to act in the client portal: the top-up of what is missing, the subscription to renew, the payment. */
  link: string;
}

export interface ClientNotification {
  id: string;
  kind: NotificationKind;
  params: NotificationParams;
  createdAt: string;
  readAt: string | null;
}

/** Where the notification's mail is: waiting, failed and waiting for its retry, delivered, or dropped as no longer wanted. */
export type NotificationMailState = 'PENDING' | 'RETRYING' | 'SENT' | 'SKIPPED';

/** A notification as staff see it on the client's page. */
export interface SentNotification extends ClientNotification {
  mailState: NotificationMailState | null;
}

export interface NotificationPage extends Page<ClientNotification> {
  unreadCount: number;
}

export interface NotificationPageRequest {
  page?: number;
  size?: number;
}

/**
 * A transfer's sender as the payment's page names them (ADR 0077): "Dana Cohen (123456)", or the profile ID alone,
 * never the e-mail; isolated (FSI…PDI), so that a Latin name and its parenthesised number keep their order inside a
 * Hebrew sentence. The portal, the console, the mail and Telegram all say it this way.
 */
export function transferSenderText(senderName: string | null | undefined, senderProfileId: string | undefined): string {
  const profileId = senderProfileId ?? '';
  return `\u2068${senderName ? `${senderName} (${profileId})` : profileId}\u2069`;
}
