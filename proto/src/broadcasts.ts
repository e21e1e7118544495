import type { CustomerRole, Language, UserStatus } from './enums';
import type { DateRange, IsoDateTime } from './payloads';

/*
 * Broadcasts (docs/adr/0091-broadcasts.md): an admin's announcement in Hebrew and English to the clients the staff
 * clients list's filters match, each recipient told once, in their language, by mail and in the portal's list.
 */

/** The staff clients list's filters, without paging: who a broadcast goes to. */
export interface ClientFilterRequest {
  keyWord?: string;
  statuses?: UserStatus[];
  roles?: CustomerRole[];
  registrationDate?: DateRange;
}

export interface BroadcastContent {
  subjectHe: string;
  bodyHe: string;
  subjectEn: string;
  bodyEn: string;
}

/** `POST /broadcasts`: sends at once to the clients `filter` matches at that moment. */
export interface CreateBroadcastRequest extends BroadcastContent {
  filter: ClientFilterRequest;
}

/** `POST /broadcasts/preview`: how many clients the filter matches now, and how many of them opted out. */
export interface BroadcastPreview {
  recipients: number;
  unsubscribed: number;
}

/** Queued recipients are handed to the outbox at the configured rate; a broadcast is DONE when none is left queued. */
export const BROADCAST_STATUSES = Object.freeze(['SENDING', 'DONE'] as const);
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/**
 * Where one recipient stands: waiting for its turn (QUEUED), handed to the outbox and waiting for SMTP (PENDING),
 * delivered (SENT), left out because they switched announcements off (SKIPPED_UNSUBSCRIBED), or failing and retried
 * by the outbox (FAILED).
 */
export const BROADCAST_RECIPIENT_STATUSES = Object.freeze([
  'QUEUED',
  'PENDING',
  'SENT',
  'SKIPPED_UNSUBSCRIBED',
  'FAILED',
] as const);
export type BroadcastRecipientStatus = (typeof BROADCAST_RECIPIENT_STATUSES)[number];

export interface BroadcastSummary extends BroadcastContent {
  id: string;
  status: BroadcastStatus;
  filter: ClientFilterRequest;
  createdAt: IsoDateTime;
  createdBy: string;
  recipients: number;
  queued: number;
  sent: number;
  skipped: number;
  failed: number;
}

export interface BroadcastRecipient {
  userUuid: string;
  email: string;
  fullName: string;
  language: Language;
  status: BroadcastRecipientStatus;
}

export interface BroadcastDetail extends BroadcastSummary {
  recipientList: BroadcastRecipient[];
}

/** `GET`/`PUT /notifications/preferences`: whether the client receives announcements (service mails always go). */
export interface AnnouncementPreference {
  announcements: boolean;
}

/** `POST /announcements/unsubscribe`: the signed token of an announcement's unsubscribe link; no sign-in needed. */
export interface UnsubscribeRequest {
  token: string;
}

/**
 * Events of a broadcast's own stream, `broadcast-{uuid}` (ADR 0091, amended): who sent what to how many, and when
 * the last recipient was handed to the mail outbox. The recipients table stays the delivery record; these make the
 * broadcast auditable (the activity log tells them) without a row per recipient.
 */
export const BROADCAST_EVENT_TYPES = Object.freeze({
  sent: 'BroadcastSent',
  handedOff: 'BroadcastHandedOff',
} as const);

export type BroadcastEventType = (typeof BROADCAST_EVENT_TYPES)[keyof typeof BROADCAST_EVENT_TYPES];

export const BROADCAST_STREAM_PREFIX = 'broadcast-';

export function broadcastStreamId(broadcastId: string): string {
  return `${BROADCAST_STREAM_PREFIX}${broadcastId}`;
}

/**
 * A broadcast was sent: its subjects, the audience as the admin filtered it, and how many clients it reached when the
 * recipients were frozen (`queued` wait for their turn; `skipped` had switched announcements off). The bodies stay in
 * the broadcasts table: an event need not carry a page of text to say who sent what to how many.
 */
export interface BroadcastSentData {
  broadcastId: string;
  subjectHe: string;
  subjectEn: string;
  filter: ClientFilterRequest;
  recipientCount: number;
  queuedCount: number;
  skippedCount: number;
  actorId: string;
  sentAt: IsoDateTime;
}

/** The last queued recipient was handed to the mail outbox: how many were handed, and how many left out at the send. */
export interface BroadcastHandedOffData {
  broadcastId: string;
  handedCount: number;
  skippedCount: number;
  handedOffAt: IsoDateTime;
}

export interface BroadcastEventDataByType {
  BroadcastSent: BroadcastSentData;
  BroadcastHandedOff: BroadcastHandedOffData;
}

export type BroadcastEvent = {
  [Type in BroadcastEventType]: { type: Type; data: BroadcastEventDataByType[Type] };
}[BroadcastEventType];
