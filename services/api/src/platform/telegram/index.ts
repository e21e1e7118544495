export {
  TELEGRAM_LONG_POLL_SECONDS,
  TelegramBotApi,
  type TelegramMessage,
  type TelegramSendResult,
} from './telegram-bot-api';
export { Telegram, TelegramModule } from './telegram.module';
export { TELEGRAM_POLLING_SWEEP, TelegramPollingSweep } from './telegram-polling.sweep';
export { type TelegramUpdateHandler, TelegramUpdates } from './telegram-updates';
export { TELEGRAM_UPDATES_PRUNING_SWEEP, TelegramUpdatesPruningSweep } from './telegram-updates-pruning.sweep';
export { TELEGRAM_SECRET_HEADER, TELEGRAM_WEBHOOK_PATH } from './telegram-webhook.controller';
export type { Update as TelegramUpdate } from 'grammy/types';
