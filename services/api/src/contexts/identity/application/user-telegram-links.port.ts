import type { UserTelegram } from '@kupa/proto';

/**
 * What identity needs from the context that keeps the Telegram links: the state staff see on a person's detail.
 * The notifications context owns `telegram_links` and binds this port (ADR 0013), so identity never reads its table;
 * what it answers leaves out the chat id and the username (docs/adr/0107-telegram-staff-view-pruning-and-urgent-mails.md).
 */
export abstract class UserTelegramLinks {
  abstract telegramOf(userUuid: string): Promise<UserTelegram>;
}
