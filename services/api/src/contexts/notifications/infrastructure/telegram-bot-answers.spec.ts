import { formatDollarsForIsolate } from '@kupa/proto';
import {
  balanceAnswer,
  BOT_COMMANDS,
  BOT_SUBSCRIPTIONS_SHOWN,
  botCommandMenu,
  type BotLinks,
  type BotSubscription,
  clientsOnlyAnswer,
  helpAnswer,
  subscriptionsAnswer,
  TELEGRAM_MESSAGE_MAX_LENGTH,
  topUpAnswer,
} from './telegram-bot-answers';

const links: BotLinks = {
  portal: 'https://kupa.example',
  topUp: 'https://kupa.example/payments/deposit',
  packages: 'https://kupa.example/packages',
  subscriptions: 'https://kupa.example/subscriptions',
};

const gold: BotSubscription = {
  planName: 'Gold',
  status: 'ACTIVE',
  endDate: '2026-12-30T10:00:00.000Z',
  graceEndsAt: null,
  login: 'tv.dana01',
};

/** What a reader of the message sees: the isolates that keep directions apart are invisible. */
const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

describe("the bot's answers to a linked person's commands (ADR 0103)", () => {
  it('tells a balance in the portal money format, in Hebrew and English', () => {
    expect(visible(balanceAnswer(1250, 'en', links))).toBe('Your balance: $12.50. To top it up: /topup');
    const hebrew = balanceAnswer(1250, 'he', links);
    expect(hebrew).toContain(`\u2066${formatDollarsForIsolate(12.5, 'he')}\u2069`);
    expect(hebrew).toContain('היתרה שלך');
    expect(visible(balanceAnswer(0, 'en', links))).toBe('Your balance: $0.00. To top it up: /topup');
  });

  it('says a balance below zero as a debt, linking the top-up of exactly what is owed', () => {
    const english = visible(balanceAnswer(-505, 'en', links));
    expect(english).toBe(
      'You owe $5.05. To cover it, top up your balance: https://kupa.example/payments/deposit?amountMinor=505',
    );
    expect(english).not.toContain('-');
    const hebrew = visible(balanceAnswer(-505, 'he', links));
    expect(hebrew).toContain('חוב');
    expect(hebrew).toContain(formatDollarsForIsolate(5.05, 'he'));
    expect(hebrew).toContain('amountMinor=505');
  });

  it('lists each subscription with its package, status, end date in the language, and login', () => {
    const paused: BotSubscription = {
      planName: null,
      status: 'GRACE',
      endDate: '2026-11-20T00:00:00.000Z',
      graceEndsAt: '2026-12-04T00:00:00.000Z',
      login: 'tv.trial77',
    };
    const english = visible(subscriptionsAnswer({ subscriptions: [gold, paused], total: 2 }, 'en', links));
    expect(english.split('\n')).toEqual([
      'Your subscriptions:',
      '• Gold — Active, until December 30, 2026. Login: tv.dana01',
      '• Trial — Paused, awaiting payment, login kept until December 4, 2026. Login: tv.trial77',
      '',
      'All of them in the portal: https://kupa.example/subscriptions',
    ]);
    const hebrew = visible(subscriptionsAnswer({ subscriptions: [gold, paused], total: 2 }, 'he', links));
    expect(hebrew).toContain('• Gold — פעיל, עד 30 בדצמבר 2026. שם משתמש: tv.dana01');
    expect(hebrew).toContain('• ניסיון — מושהה, ממתין לתשלום, שם המשתמש נשמר עד 4 בדצמבר 2026. שם משתמש: tv.trial77');
  });

  it('answers no subscription with a sentence and the packages page', () => {
    expect(subscriptionsAnswer({ subscriptions: [], total: 0 }, 'en', links)).toBe(
      'You have no active subscriptions right now. The packages are in the portal: https://kupa.example/packages',
    );
    expect(subscriptionsAnswer({ subscriptions: [], total: 0 }, 'he', links)).toContain(links.packages);
  });

  it(`lists at most ${BOT_SUBSCRIPTIONS_SHOWN} and counts the rest, for the portal`, () => {
    const many = Array.from({ length: 25 }, (_, index) => ({ ...gold, login: `tv.login${index}` }));
    const answer = subscriptionsAnswer({ subscriptions: many, total: 31 }, 'en', links);
    const lines = answer.split('\n').filter((line) => line.startsWith('•'));
    expect(lines).toHaveLength(BOT_SUBSCRIPTIONS_SHOWN);
    expect(lines[0]).toContain('tv.login0');
    expect(answer).toContain('11 more in the portal: https://kupa.example/subscriptions');
    expect(subscriptionsAnswer({ subscriptions: many, total: 31 }, 'he', links)).toContain('ועוד 11 בפורטל');
  });

  it("stays within Telegram's 4096 characters however long the names, counting what it left out", () => {
    const longest = Array.from({ length: BOT_SUBSCRIPTIONS_SHOWN }, (_, index) => ({
      ...gold,
      planName: 'ש'.repeat(100),
      status: 'GRACE' as const,
      graceEndsAt: '2026-12-04T00:00:00.000Z',
      login: `${'x'.repeat(62)}${String(index).padStart(2, '0')}`,
    }));
    for (const language of ['he', 'en'] as const) {
      const answer = subscriptionsAnswer({ subscriptions: longest, total: 500 }, language, links);
      expect(answer.length).toBeLessThanOrEqual(TELEGRAM_MESSAGE_MAX_LENGTH);
      const shown = answer.split('\n').filter((line) => line.startsWith('•')).length;
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThan(BOT_SUBSCRIPTIONS_SHOWN);
      expect(answer).toContain(language === 'en' ? `${500 - shown} more` : `ועוד ${500 - shown}`);
    }
  });

  it('keeps a typed name to one isolated line: no line break, control or direction override of its own', () => {
    const tricky = { ...gold, planName: 'Gold\n• Fake — Active\u202e\u0007 ' };
    const answer = subscriptionsAnswer({ subscriptions: [tricky], total: 1 }, 'en', links);
    expect(answer.split('\n').filter((line) => line.startsWith('•'))).toHaveLength(1);
    expect(answer.replace(/\n/g, '')).not.toMatch(/[\p{Cc}\u202a-\u202e]/u);
    expect(answer).toContain('\u2068Gold • Fake — Active\u2069');
  });

  it('reads only the fields a subscription may show: never a password, whatever the object carries', () => {
    const read = new Set<string>();
    const withSecret = { ...gold, password: 'hunter2-streaming', passwordHash: 'x' };
    const watched = new Proxy(withSecret, {
      get(target, property, receiver) {
        if (typeof property === 'string') read.add(property);
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    for (const language of ['he', 'en'] as const) {
      const answer = subscriptionsAnswer({ subscriptions: [watched], total: 1 }, language, links);
      expect(answer).not.toContain('hunter2');
    }
    const shown: string[] = ['planName', 'status', 'endDate', 'graceEndsAt', 'login'];
    expect([...read].filter((field) => !shown.includes(field))).toEqual([]);
    expect(read.has('login')).toBe(true);
  });

  it('gives the deposit page, the help and the staff answer in both languages', () => {
    expect(topUpAnswer('en', links)).toContain('https://kupa.example/payments/deposit');
    expect(topUpAnswer('he', links)).toContain('https://kupa.example/payments/deposit');
    for (const language of ['he', 'en'] as const) {
      const help = helpAnswer(language, links);
      for (const { command } of BOT_COMMANDS) expect(help).toContain(`/${command} — `);
      expect(help).toContain(links.portal);
      expect(clientsOnlyAnswer(language, links)).toContain(`${links.portal}/admin`);
    }
    expect(clientsOnlyAnswer('en', links)).toContain('for clients');
  });

  it('gives Telegram a menu it accepts: 1–32 of a-z, 0-9 and _, a description of 1–256 characters', () => {
    for (const language of ['he', 'en'] as const) {
      const menu = botCommandMenu(language);
      expect(menu.map((entry) => entry.command)).toEqual(['balance', 'subscriptions', 'topup', 'help', 'stop']);
      for (const entry of menu) {
        expect(entry.command).toMatch(/^[a-z0-9_]{1,32}$/);
        expect(entry.description.length).toBeGreaterThan(0);
        expect(entry.description.length).toBeLessThanOrEqual(256);
      }
    }
    expect(botCommandMenu('he')[0]!.description).toBe('היתרה שלי');
  });
});
