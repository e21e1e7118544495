import { nextInLine, TelegramPacer, type WaitingMessage } from './telegram-delivery';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 9, minute));
const now = at(30);

function message(id: number, userUuid: string, createdMinute: number, dueMinute = createdMinute): WaitingMessage {
  return { id: String(id), userUuid, createdAt: at(createdMinute), nextAttemptAt: at(dueMinute) };
}

describe('which waiting Telegram messages go now', () => {
  it('Given three messages of one person, When the sender looks, Then only the oldest goes', () => {
    const waiting = [message(3, 'dana', 12), message(1, 'dana', 10), message(2, 'dana', 11)];
    expect(nextInLine(waiting, now).map((m) => m.id)).toEqual(['1']);
  });

  it('Given a person whose oldest waits for its retry, When the sender looks, Then none of theirs goes; others do', () => {
    const waiting = [message(1, 'dana', 10, 40), message(2, 'dana', 11), message(3, 'eli', 12)];
    expect(nextInLine(waiting, now).map((m) => m.id)).toEqual(['3']);
  });

  it('Given several people, When the sender looks, Then their heads go oldest first, ties by the order recorded', () => {
    const waiting = [message(9, 'eli', 20), message(7, 'dana', 15), message(12, 'noa', 15), message(8, 'dana', 16)];
    expect(nextInLine(waiting, now).map((m) => m.id)).toEqual(['7', '12', '9']);
  });

  it('Given messages recorded in one instant, When the sender looks, Then the smaller id is the older', () => {
    const waiting = [message(11, 'dana', 10), message(10, 'dana', 10)];
    expect(nextInLine(waiting, now).map((m) => m.id)).toEqual(['10']);
  });
});

describe('pacing sends to the Bot API limits', () => {
  const limits = { messagesPerSecond: 25, perChatIntervalMs: 1100 };

  it('Given nothing sent yet, When a message is asked for, Then it may go at once', () => {
    const pacer = new TelegramPacer(limits);
    expect(pacer.readyAt('501')).toBeLessThanOrEqual(0);
  });

  it('Given a send, When the next one anywhere is asked for, Then it waits 1/rate of a second', () => {
    const pacer = new TelegramPacer(limits);
    pacer.started('501', 10_000);
    expect(pacer.readyAt('502')).toBe(10_040);
    expect(pacer.globalReadyAt()).toBe(10_040);
  });

  it('Given 25 a second, When sends follow their slots for a second, Then no more than 25 start in it', () => {
    const pacer = new TelegramPacer(limits);
    const starts: number[] = [];
    let t = 0;
    for (let chat = 0; chat < 100; chat += 1) {
      t = Math.max(t, pacer.readyAt(String(chat)));
      pacer.started(String(chat), t);
      starts.push(t);
    }
    for (const start of starts)
      expect(starts.filter((s) => s >= start && s < start + 1000).length).toBeLessThanOrEqual(25);
  });

  it('Given a message to a chat, When the same chat is asked for, Then it waits the per-chat interval', () => {
    const pacer = new TelegramPacer(limits);
    pacer.started('501', 10_000);
    expect(pacer.readyAt('501')).toBe(11_100);
    expect(pacer.busyChats(10_500)).toEqual(['501']);
    expect(pacer.nextChatFreeAt(10_500)).toBe(11_100);
    expect(pacer.busyChats(11_100)).toEqual([]);
    expect(pacer.nextChatFreeAt(11_100)).toBeNull();
  });

  it('Given a 429 with retry_after 3, When any chat is asked for, Then nothing goes for 3 seconds', () => {
    const pacer = new TelegramPacer(limits);
    pacer.started('501', 10_000);
    pacer.pause(10_010, 3);
    expect(pacer.readyAt('777')).toBe(13_010);
    expect(pacer.globalReadyAt()).toBe(13_010);
    // A shorter pause after it does not shorten it.
    pacer.pause(10_020, 1);
    expect(pacer.globalReadyAt()).toBe(13_010);
  });

  it('Given limits that make no sense, When a pacer is made, Then it refuses', () => {
    expect(() => new TelegramPacer({ messagesPerSecond: 0, perChatIntervalMs: 1000 })).toThrow();
  });
});
