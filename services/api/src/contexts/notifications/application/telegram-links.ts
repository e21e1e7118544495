import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import {
  type Language,
  TELEGRAM_LINK_TOKEN_MINUTES,
  type TelegramLinkStatus,
  type TelegramLinkTokenResponse,
  type TelegramUnlinkSource,
  telegramStreamId,
} from '@kupa/proto';
import { DataSource } from 'typeorm';
import { type RequestContext, systemContext } from '../../../platform/auth';
import { Clock } from '../../../platform/clock';
import { CommandPipeline, foldedStreamKind } from '../../../platform/commands';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { hashSecretToken } from '../../../platform/crypto';
import { ApiError } from '../../../platform/http';
import { Telegram, type TelegramUpdate } from '../../../platform/telegram';
import { UserReader, type UserView } from '../../identity';
import {
  judgeLinkToken,
  type LinkTokenVerdict,
  linkTelegram,
  telegramLinkEvolution,
  unlinkTelegram,
} from '../domain/telegram-link.decider';
import { languageOfTelegramUser, type TelegramBotText, telegramBotText } from '../infrastructure/telegram-bot-texts';
import { TelegramBotCommands } from './telegram-bot-commands';

const TELEGRAM_STREAMS = foldedStreamKind(telegramLinkEvolution, (id) => telegramStreamId(String(id)));

/** A start payload Telegram passes on: 1–64 of these characters (we hand out 32). */
const START_PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;

interface LinkRow {
  user_uuid: string;
  chat_id: string;
  username: string | null;
  linked_at: Date;
}

/**
 * Linking a person's Telegram chat (docs/adr/0103-telegram-channel.md): the profile's one-time deep link, the bot's
 * `/start <token>` that redeems it, unlinking from either side; what else a linked person writes is answered by
 * `TelegramBotCommands`.
 */
@Injectable()
export class TelegramLinks {
  private readonly logger = new Logger('Telegram');

  constructor(
    private readonly dataSource: DataSource,
    private readonly telegram: Telegram,
    private readonly users: UserReader,
    private readonly clock: Clock,
    private readonly pipeline: CommandPipeline,
    private readonly commands: TelegramBotCommands,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async status(userUuid: string): Promise<TelegramLinkStatus> {
    if (this.telegram.bot === null) return { configured: false, linked: false, username: null, linkedAt: null };
    const row = await this.linkOf(userUuid);
    return {
      configured: true,
      linked: row !== null,
      username: row?.username ?? null,
      linkedAt: row ? row.linked_at.toISOString() : null,
    };
  }

  /** A fresh one-time token for the account that asks; its earlier unused ones stop working. */
  async createLinkToken(userUuid: string): Promise<TelegramLinkTokenResponse> {
    const bot = this.telegram.bot;
    if (bot === null) throw new ApiError('error.telegram.not.configured');
    const token = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + TELEGRAM_LINK_TOKEN_MINUTES * 60_000);
    let deepLink: string;
    try {
      deepLink = await bot.deepLink(token);
    } catch {
      throw new ApiError('error.telegram.unavailable');
    }
    await this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM telegram_link_tokens WHERE user_uuid = $1 AND used_at IS NULL', [userUuid]);
      await manager.query(
        `INSERT INTO telegram_link_tokens (token_hash, user_uuid, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
        [hashSecretToken(token), userUuid, now, expiresAt],
      );
    });
    return { deepLink, expiresAt: expiresAt.toISOString() };
  }

  /** Unlinks from the profile; 404 `error.telegram.not.linked` when nothing is. */
  async unlinkFromPortal(userUuid: string, context: RequestContext): Promise<void> {
    const user = await this.users.findByUuid(userUuid);
    const unlinked = user ? await this.unlink(user, null, 'PORTAL', context) : false;
    if (!unlinked) throw new ApiError('error.telegram.not.linked');
  }

  /** The bot: what a person wrote to it, answered in their language. */
  async handleUpdate(update: TelegramUpdate): Promise<void> {
    const message = update.message;
    if (!message?.text || !message.from) return;
    const chatId = String(message.chat.id);
    const text = message.text.trim();
    const command = /^\/([A-Za-z_]+)(?:@\w+)?(?:\s+(.*))?$/.exec(text);
    const name = command?.[1]?.toLowerCase() ?? null;
    const linkedUser = await this.userOfChat(chatId);
    const fallbackLanguage = linkedUser?.language ?? languageOfTelegramUser(message.from.language_code);
    if (message.chat.type !== 'private') {
      await this.reply(chatId, 'groupsNotSupported', fallbackLanguage);
      return;
    }
    if (name === 'start' && command?.[2]) {
      await this.redeem(chatId, message.from.username ?? null, command[2].trim(), fallbackLanguage);
      return;
    }
    if (name === 'stop' || name === 'unlink') {
      if (linkedUser && (await this.unlink(linkedUser, chatId, 'BOT', systemContext())))
        await this.reply(chatId, 'unlinked', linkedUser.language);
      else await this.reply(chatId, 'notLinked', fallbackLanguage);
      return;
    }
    if (!linkedUser) {
      await this.reply(chatId, 'notLinked', fallbackLanguage);
      return;
    }
    await this.send(chatId, await this.commands.answer(linkedUser, name));
  }

  private async redeem(chatId: string, username: string | null, token: string, language: Language): Promise<void> {
    const tokenHash = START_PAYLOAD.test(token) ? hashSecretToken(token) : null;
    const [owner]: Array<{ user_uuid: string }> = tokenHash
      ? await this.dataSource.query('SELECT user_uuid FROM telegram_link_tokens WHERE token_hash = $1', [tokenHash])
      : [];
    const user = owner ? await this.users.findByUuid(owner.user_uuid) : null;
    if (!tokenHash || !user) {
      await this.reply(chatId, 'tokenUnknown', language);
      return;
    }
    // The chat may be linked to another account: that link ends in the same transaction (one account per chat).
    const previous = await this.userOfChat(chatId);
    const other = previous && previous.uuid !== user.uuid ? previous : null;
    const streams = {
      account: TELEGRAM_STREAMS.ref(user.uuid),
      ...(other ? { other: TELEGRAM_STREAMS.ref(other.uuid) } : {}),
    };
    const judged: { verdict: LinkTokenVerdict } = { verdict: 'UNKNOWN' };
    await this.pipeline.run({
      context: systemContext(),
      streams,
      prepare: async (tx, { at }) => {
        const [row]: Array<{ user_uuid: string; expires_at: Date; used_at: Date | null }> = await tx.manager.query(
          'SELECT user_uuid, expires_at, used_at FROM telegram_link_tokens WHERE token_hash = $1 FOR UPDATE',
          [tokenHash],
        );
        judged.verdict = judgeLinkToken(
          row ? { userUuid: row.user_uuid, expiresAt: row.expires_at, usedAt: row.used_at } : null,
          at,
        );
      },
      decide: (loaded, { at }) => {
        if (judged.verdict !== 'VALID') return { events: {}, result: null };
        const otherState = 'other' in loaded ? (loaded.other as { state: Parameters<typeof unlinkTelegram>[1] }) : null;
        return {
          events: {
            account: linkTelegram(
              { userUuid: user.uuid, userRole: user.role, chatId, username, at },
              loaded.account.state,
            ),
            ...(other && otherState
              ? {
                  other: unlinkTelegram(
                    { userUuid: other.uuid, userRole: other.role, source: 'BOT', chatId, at },
                    otherState.state,
                  ),
                }
              : {}),
          },
          result: null,
        };
      },
      alongside: async (tx, _decision, { at }) => {
        if (judged.verdict !== 'VALID') return;
        await tx.manager.query('UPDATE telegram_link_tokens SET used_at = $2 WHERE token_hash = $1', [tokenHash, at]);
        await tx.manager.query('DELETE FROM telegram_links WHERE chat_id = $1 AND user_uuid <> $2', [
          chatId,
          user.uuid,
        ]);
        await tx.manager.query(
          `INSERT INTO telegram_links (user_uuid, chat_id, username, linked_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (user_uuid) DO UPDATE
             SET chat_id = EXCLUDED.chat_id, username = EXCLUDED.username, linked_at = EXCLUDED.linked_at,
                 blocked_at = NULL`,
          [user.uuid, chatId, username, at],
        );
      },
    });
    const outcome: Record<LinkTokenVerdict, TelegramBotText> = {
      VALID: 'linked',
      UNKNOWN: 'tokenUnknown',
      EXPIRED: 'tokenExpired',
      USED: 'tokenUsed',
    };
    // A valid token speaks the account's language; a refused one, the chat's.
    await this.reply(chatId, outcome[judged.verdict], judged.verdict === 'VALID' ? user.language : language);
  }

  private async unlink(
    user: UserView,
    chatId: string | null,
    source: TelegramUnlinkSource,
    context: RequestContext,
  ): Promise<boolean> {
    let unlinked = false;
    await this.pipeline.run({
      context,
      streams: { account: TELEGRAM_STREAMS.ref(user.uuid) },
      decide: (loaded, { at }) => {
        const events = unlinkTelegram(
          { userUuid: user.uuid, userRole: user.role, source, chatId, at },
          loaded.account.state,
        );
        unlinked = events.length > 0;
        return { events: { account: events }, result: null };
      },
      alongside: async (tx) => {
        if (unlinked) await tx.manager.query('DELETE FROM telegram_links WHERE user_uuid = $1', [user.uuid]);
      },
    });
    return unlinked;
  }

  private async linkOf(userUuid: string): Promise<LinkRow | null> {
    const [row]: LinkRow[] = await this.dataSource.query(
      'SELECT user_uuid, chat_id, username, linked_at FROM telegram_links WHERE user_uuid = $1',
      [userUuid],
    );
    return row ?? null;
  }

  private async userOfChat(chatId: string): Promise<UserView | null> {
    const [row]: Array<{ user_uuid: string }> = await this.dataSource.query(
      'SELECT user_uuid FROM telegram_links WHERE chat_id = $1',
      [chatId],
    );
    return row ? this.users.findByUuid(row.user_uuid) : null;
  }

  private async reply(chatId: string, text: TelegramBotText, language: Language): Promise<void> {
    await this.send(chatId, telegramBotText(text, language, { portal: this.config.publicUrl }));
  }

  /** Plain text, no parse mode: nothing in it is read as markup (ADR 0103's amendment). */
  private async send(chatId: string, text: string): Promise<void> {
    const bot = this.telegram.bot;
    if (bot === null) return;
    const result = await bot.send(chatId, { text });
    if (result.outcome !== 'sent') this.logger.warn(`Telegram reply to a chat not sent: ${result.outcome}`);
  }
}
