import type { BotSubscriptions } from '../infrastructure/telegram-bot-answers';

/**
 * What the bot's `/subscriptions` needs from the context that keeps subscriptions (docs/adr/0103-telegram-channel.md,
 * amendment "the bot's commands"). Notifications must not import subscriptions (which imports notifications for its
 * notices): the subscriptions context binds this port to its own read model (ADR 0013). The answer's shape has no
 * field for a password or any other secret, so an implementation cannot hand one over by mistake. A read only.
 */
export abstract class ClientSubscriptions {
  /**
   * The person's current subscriptions (`ACTIVE`, `UNSUBSCRIBED`, `GRACE`), the soonest to end first, at most `limit`
   * of them, and how many there are in all.
   */
  abstract currentOf(userUuid: string, limit: number): Promise<BotSubscriptions>;
}
