import {
  TELEGRAM_EVENT_TYPES,
  type TelegramEvent,
  type TelegramEventType,
  type TelegramUnlinkSource,
  type UserRole,
} from '@kupa/proto';
import type { Evolution } from '../../../kernel';

/*
 * A person's Telegram link, stream `telegram-{userUuid}` (docs/adr/0103-telegram-channel.md): which private chat with
 * the bot is theirs, linked through a one-time token from the portal, unlinked from the portal or the bot.
 */

export const ALL_TELEGRAM_EVENT_TYPES: readonly TelegramEventType[] = Object.freeze(
  Object.values(TELEGRAM_EVENT_TYPES),
);

export interface TelegramLinkState {
  chatId: string;
  username: string | null;
}

export const telegramLinkEvolution: Evolution<TelegramLinkState | null, TelegramEvent> = {
  initialState: () => null,
  evolve(_state, event) {
    if (event.type === 'TelegramLinked') return { chatId: event.data.chatId, username: event.data.username };
    return null;
  },
};

/** A link token as stored (hashed): whose it is, until when it opens a link, and whether it already did. */
export interface LinkTokenRecord {
  userUuid: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export type LinkTokenVerdict = 'VALID' | 'UNKNOWN' | 'EXPIRED' | 'USED';

/** A token links once, before it expires; one we never issued links nothing. */
export function judgeLinkToken(token: LinkTokenRecord | null, at: Date): LinkTokenVerdict {
  if (token === null) return 'UNKNOWN';
  if (token.usedAt !== null) return 'USED';
  if (token.expiresAt.getTime() <= at.getTime()) return 'EXPIRED';
  return 'VALID';
}

export interface LinkTelegram {
  userUuid: string;
  userRole: UserRole;
  chatId: string;
  username: string | null;
  at: Date;
}

/**
 * Links the chat, replacing the chat linked before; linking the chat already linked under the same name changes
 * nothing (a second tap on the same link).
 */
export function linkTelegram(command: LinkTelegram, state: TelegramLinkState | null): TelegramEvent[] {
  if (state && state.chatId === command.chatId && state.username === command.username) return [];
  return [
    {
      type: 'TelegramLinked',
      data: {
        userUuid: command.userUuid,
        userRole: command.userRole,
        chatId: command.chatId,
        username: command.username,
        replacedChatId: state && state.chatId !== command.chatId ? state.chatId : null,
        linkedAt: command.at.toISOString(),
      },
    },
  ];
}

export interface UnlinkTelegram {
  userUuid: string;
  userRole: UserRole;
  source: TelegramUnlinkSource;
  /** From the bot: the chat that asked, which unlinks only itself. */
  chatId: string | null;
  at: Date;
}

/** Unlinks the linked chat; nothing linked (or another chat asking) changes nothing. */
export function unlinkTelegram(command: UnlinkTelegram, state: TelegramLinkState | null): TelegramEvent[] {
  if (state === null) return [];
  if (command.chatId !== null && command.chatId !== state.chatId) return [];
  return [
    {
      type: 'TelegramUnlinked',
      data: {
        userUuid: command.userUuid,
        userRole: command.userRole,
        chatId: state.chatId,
        source: command.source,
        unlinkedAt: command.at.toISOString(),
      },
    },
  ];
}
