import { deciderSpec } from '../../../test-support/decider-spec';
import { judgeLinkToken, linkTelegram, telegramLinkEvolution, unlinkTelegram } from './telegram-link.decider';

const dana = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-11-30T10:00:00.000Z');
const link = { userUuid: dana, userRole: 'CLIENT' as const, chatId: '501', username: 'dana_k', at };
const [linkedEvent] = linkTelegram(link, null);

const { given } = deciderSpec(telegramLinkEvolution);

describe('telegram link decider', () => {
  it('accepts a token once, before it expires, and nothing it never issued', () => {
    const token = { userUuid: dana, expiresAt: new Date('2026-11-30T10:10:00.000Z'), usedAt: null };
    expect(judgeLinkToken(token, at)).toBe('VALID');
    expect(judgeLinkToken(token, new Date('2026-11-30T10:10:00.000Z'))).toBe('EXPIRED');
    expect(judgeLinkToken({ ...token, usedAt: at }, at)).toBe('USED');
    expect(judgeLinkToken(null, at)).toBe('UNKNOWN');
  });

  it('links a chat to an account that had none', () => {
    expect(linkedEvent).toEqual({
      type: 'TelegramLinked',
      data: {
        userUuid: dana,
        userRole: 'CLIENT',
        chatId: '501',
        username: 'dana_k',
        replacedChatId: null,
        linkedAt: at.toISOString(),
      },
    });
  });

  it('replaces the chat linked before, and names it', () => {
    given([linkedEvent!])
      .when((state) => linkTelegram({ ...link, chatId: '777', username: null }, state))
      .then([
        {
          type: 'TelegramLinked',
          data: {
            userUuid: dana,
            userRole: 'CLIENT',
            chatId: '777',
            username: null,
            replacedChatId: '501',
            linkedAt: at.toISOString(),
          },
        },
      ]);
  });

  it('changes nothing when the same chat links again under the same name', () => {
    given([linkedEvent!])
      .when((state) => linkTelegram(link, state))
      .then([]);
  });

  it('unlinks from the portal, and from the bot only the chat that asks', () => {
    const unlink = { userUuid: dana, userRole: 'CLIENT' as const, at };
    given([linkedEvent!])
      .when((state) => unlinkTelegram({ ...unlink, source: 'PORTAL', chatId: null }, state))
      .then([
        {
          type: 'TelegramUnlinked',
          data: { userUuid: dana, userRole: 'CLIENT', chatId: '501', source: 'PORTAL', unlinkedAt: at.toISOString() },
        },
      ]);
    given([linkedEvent!])
      .when((state) => unlinkTelegram({ ...unlink, source: 'BOT', chatId: '999' }, state))
      .then([]);
    given([])
      .when((state) => unlinkTelegram({ ...unlink, source: 'PORTAL', chatId: null }, state))
      .then([]);
  });
});
