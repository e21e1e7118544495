import type { TelegramLinkTokenResponse } from '@kupa/proto';
import type { FakeTelegram, FakeTelegramUser } from './fake-telegram';
import type { TestApp } from './test-app';

/**
 * Links a person's chat through the real path: a one-time token from `POST /users/me/telegram/link-token`, then
 * `/start <token>` written in the chat, waiting for the bot's answer. Resolves to that answer's text.
 */
export async function linkTelegramChat(
  testApp: TestApp,
  telegram: FakeTelegram,
  accessToken: string,
  chat: FakeTelegramUser,
): Promise<string> {
  const response = await testApp.http
    .post('/api/users/me/telegram/link-token')
    .set('Authorization', `Bearer ${accessToken}`)
    .expect(201);
  const token = new URL((response.body as TelegramLinkTokenResponse).deepLink).searchParams.get('start');
  if (!token) throw new Error('The link token response had no start parameter');
  const before = telegram.messagesTo(chat.id).length;
  await telegram.userSays(chat, `/start ${token}`);
  return (await telegram.waitForMessages(chat.id, before + 1))[before]!.text;
}
