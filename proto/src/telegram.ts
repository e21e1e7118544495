import type { UserRole } from './enums';
import type { IsoDateTime } from './payloads';

/**
 * Telegram as a channel (docs/adr/0103-telegram-channel.md): a person links the chat with the bot to their account
 * through a one-time deep link, and unlinks it from the portal or the bot. Events of the stream `telegram-{userUuid}`
 * (the notifications context's), which the activity log tells under the person.
 */
export const TELEGRAM_EVENT_TYPES = Object.freeze({
  linked: 'TelegramLinked',
  unlinked: 'TelegramUnlinked',
} as const);

export type TelegramEventType = (typeof TELEGRAM_EVENT_TYPES)[keyof typeof TELEGRAM_EVENT_TYPES];

export const TELEGRAM_STREAM_PREFIX = 'telegram-';

export function telegramStreamId(userUuid: string): string {
  return `${TELEGRAM_STREAM_PREFIX}${userUuid}`;
}

/** Where the person unlinked: the portal's profile, or the bot (`/stop`). */
export const TELEGRAM_UNLINK_SOURCES = ['PORTAL', 'BOT'] as const;
export type TelegramUnlinkSource = (typeof TELEGRAM_UNLINK_SOURCES)[number];

/** A chat was linked to the account (replacing the chat linked before, if any). */
export interface TelegramLinkedData {
  userUuid: string;
  userRole: UserRole;
  /** The private chat's id, which is the Telegram user's id. */
  chatId: string;
  /** The Telegram username without `@`, when the person has one. */
  username: string | null;
  /** The chat linked before, now replaced; null when none was. */
  replacedChatId: string | null;
  linkedAt: IsoDateTime;
}

export interface TelegramUnlinkedData {
  userUuid: string;
  userRole: UserRole;
  chatId: string;
  source: TelegramUnlinkSource;
  unlinkedAt: IsoDateTime;
}

export interface TelegramEventDataByType {
  TelegramLinked: TelegramLinkedData;
  TelegramUnlinked: TelegramUnlinkedData;
}

export type TelegramEvent = {
  [Type in TelegramEventType]: { type: Type; data: TelegramEventDataByType[Type] };
}[TelegramEventType];

/** `GET /users/me/telegram`: the profile's Telegram card. */
export interface TelegramLinkStatus {
  /** False when the service has no bot (`TELEGRAM_BOT_TOKEN` unset): the card says Telegram is off. */
  configured: boolean;
  linked: boolean;
  /** The linked Telegram username without `@`; null when not linked or the person has none. */
  username: string | null;
  linkedAt: IsoDateTime | null;
}

/** `POST /users/me/telegram/link-token`: the one-time deep link, valid until `expiresAt`. */
export interface TelegramLinkTokenResponse {
  deepLink: string;
  expiresAt: IsoDateTime;
}

/** How long a link token opens the bot's link: long enough to open Telegram, short enough to be worthless later. */
export const TELEGRAM_LINK_TOKEN_MINUTES = 10;
