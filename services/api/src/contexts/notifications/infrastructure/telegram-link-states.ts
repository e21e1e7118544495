import { Injectable } from '@nestjs/common';
import type { UserTelegram } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { UserTelegramLinks } from '../../identity';

/**
 * Binds identity's `UserTelegramLinks` port to `telegram_links`: linked or not, since when, and since when blocked.
 * It selects neither the chat id nor the username (docs/adr/0107-telegram-staff-view-pruning-and-urgent-mails.md).
 */
@Injectable()
export class TelegramLinkStates extends UserTelegramLinks {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async telegramOf(userUuid: string): Promise<UserTelegram> {
    const [row]: Array<{ linked_at: Date; blocked_at: Date | null }> = await this.dataSource.query(
      'SELECT linked_at, blocked_at FROM telegram_links WHERE user_uuid = $1',
      [userUuid],
    );
    if (!row) return { linked: false, linkedAt: null, blockedAt: null };
    return {
      linked: true,
      linkedAt: row.linked_at.toISOString(),
      blockedAt: row.blocked_at === null ? null : row.blocked_at.toISOString(),
    };
  }
}
