import { Inject, Injectable, Logger } from '@nestjs/common';
import { isStaffRole, LANGUAGES } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { Telegram } from '../../../platform/telegram';
import { UserBalances, type UserView } from '../../identity';
import {
  balanceAnswer,
  BOT_SUBSCRIPTIONS_SHOWN,
  botCommandMenu,
  type BotLinks,
  clientsOnlyAnswer,
  helpAnswer,
  subscriptionsAnswer,
  topUpAnswer,
} from '../infrastructure/telegram-bot-answers';
import { telegramBotText } from '../infrastructure/telegram-bot-texts';
import { ClientSubscriptions } from './client-subscriptions.port';

/**
 * The bot's answers to a linked person (docs/adr/0103-telegram-channel.md, amendment "the bot's commands"): their
 * balance, their current subscriptions, the top-up link and the help, in the account's language; anything else
 * points to the portal. The balance comes through identity's `UserBalances` (bound by the ledger), the subscriptions through the port
 * the subscriptions context binds; nothing is
 * written. Staff accounts have no balance or subscriptions of their own to show: they are told those are a client's.
 */
@Injectable()
export class TelegramBotCommands {
  private readonly logger = new Logger('Telegram');

  constructor(
    private readonly balances: UserBalances,
    private readonly subscriptions: ClientSubscriptions,
    private readonly telegram: Telegram,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The answer to `command` (lower case, without the slash; null for text that is not a command). */
  async answer(user: UserView, command: string | null): Promise<string> {
    const links = this.links();
    const language = user.language;
    switch (command) {
      case 'help':
      case 'start':
        return helpAnswer(language, links);
      case 'topup':
        return isStaffRole(user.role) ? clientsOnlyAnswer(language, links) : topUpAnswer(language, links);
      case 'balance':
        if (isStaffRole(user.role)) return clientsOnlyAnswer(language, links);
        return balanceAnswer((await this.balances.balancesOf([user.uuid])).get(user.uuid) ?? 0, language, links);
      case 'subscriptions':
        if (isStaffRole(user.role)) return clientsOnlyAnswer(language, links);
        return subscriptionsAnswer(
          await this.subscriptions.currentOf(user.uuid, BOT_SUBSCRIPTIONS_SHOWN),
          language,
          links,
        );
      default:
        return telegramBotText('other', language, { portal: links.portal });
    }
  }

  /**
   * Tells Telegram the command menu, in Hebrew for Hebrew-speaking users and in English for everyone else (the
   * default list), as the bot picks the language of an unlinked chat. Two calls at start; a failure is logged, not
   * fatal: the commands work without the menu.
   */
  async registerMenu(): Promise<void> {
    const bot = this.telegram.bot;
    if (bot === null) return;
    try {
      for (const language of LANGUAGES)
        await bot.setMyCommands(botCommandMenu(language), language === 'en' ? null : language);
    } catch (error) {
      this.logger.warn(`Telegram setMyCommands failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private links(): BotLinks {
    const portal = this.config.publicUrl;
    return {
      portal,
      topUp: `${portal}/payments/deposit`,
      packages: `${portal}/packages`,
      subscriptions: `${portal}/subscriptions`,
    };
  }
}
