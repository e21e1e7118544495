import type { User } from '@kupa/proto';
import { ManualClock } from '../../../platform/clock';
import { eventually } from '../../../test-support/eventually';
import { FakeTelegram } from '../../../test-support/fake-telegram';
import { type ActiveUser, adminToken, createActiveUser } from '../../../test-support/identity-fixtures';
import { linkTelegramChat } from '../../../test-support/telegram-fixtures';
import { startTestApp, type TestApp } from '../../../test-support/test-app';
import { enqueueTelegramNotices } from './telegram-outbox';

/**
 * Staff see a client's Telegram on the client's detail (docs/adr/0107-telegram-staff-view-pruning-and-urgent-mails.md):
 * linked or not, since when, and whether the bot is blocked there; never the chat id or the username. A client's own
 * record has no such field, and another client's record is not found.
 */
describe("A client's Telegram on the staff's detail (ADR 0107)", () => {
  let testApp: TestApp;
  let telegram: FakeTelegram;
  const clock = new ManualClock(new Date('2026-11-30T09:00:00Z'));
  let admin: string;
  let manager: ActiveUser;
  let dana: ActiveUser;
  let eli: ActiveUser;
  const chatId = 704_123_456;

  const detail = (token: string, userUuid: string) =>
    testApp.http.get(`/api/users/${userUuid}`).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    testApp = await startTestApp({ clock, env: telegram.env({ WORKER_POLL_INTERVAL_MS: '50' }) });
    admin = await adminToken(testApp);
    manager = await createActiveUser(testApp, { role: 'MANAGER', language: 'en' });
    dana = await createActiveUser(testApp, { language: 'he' });
    eli = await createActiveUser(testApp, { language: 'en' });
  });

  afterAll(async () => {
    await testApp.close();
    await telegram.stop();
  });

  it('shows staff linked, since when and blocked, without the chat; the client sees none of it, another’s is 404', async () => {
    const before = await detail(admin, dana.userUuid).expect(200);
    expect(before.headers['cache-control']).toBe('no-store');
    expect((before.body as User).telegram).toEqual({ linked: false, linkedAt: null, blockedAt: null });

    // Dana links her chat through the real path: a one-time token, then `/start <token>` in the chat.
    const linkedAt = clock.now().toISOString();
    await linkTelegramChat(testApp, telegram, dana.accessToken, {
      id: chatId,
      username: 'dana_tg',
      languageCode: 'he',
    });

    for (const staff of [admin, manager.accessToken]) {
      const linked = await detail(staff, dana.userUuid).expect(200);
      expect((linked.body as User).telegram).toEqual({ linked: true, linkedAt, blockedAt: null });
      expect(JSON.stringify(linked.body)).not.toContain(String(chatId));
      expect(JSON.stringify(linked.body)).not.toContain('dana_tg');
    }

    // Dana blocks the bot: the next notice is answered 403, and staff see since when.
    telegram.blockBy(chatId);
    clock.advanceMs(60_000);
    const blockedAt = clock.now().toISOString();
    await testApp.dataSource.transaction((manager) =>
      enqueueTelegramNotices(
        manager,
        [
          {
            dedupeKey: 'staff-view:1',
            userUuid: dana.userUuid,
            kind: 'announcement',
            params: { subject: 'Hello', body: 'Hello', link: '/notifications' },
          },
        ],
        clock.now(),
      ),
    );
    const blocked = await eventually(
      async () => (await detail(admin, dana.userUuid).expect(200)).body as User,
      (user) => user.telegram?.blockedAt != null,
      'the link marked blocked',
    );
    expect(blocked.telegram).toEqual({ linked: true, linkedAt, blockedAt });

    // The client's own record has no Telegram field (the profile has its card); another client's is not found.
    const own = await detail(dana.accessToken, dana.userUuid).expect(200);
    expect(own.body).not.toHaveProperty('telegram');
    const other = await detail(eli.accessToken, dana.userUuid);
    expect(other.status).toBe(404);
    expect(JSON.stringify(other.body)).not.toContain('telegram');
  });
});
