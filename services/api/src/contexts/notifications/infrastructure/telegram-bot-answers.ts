import { clientEnumLabel, formatDollarsForIsolate, LANGUAGE_LOCALES, type Language } from '@kupa/proto';

/**
 * What the bot answers a linked person's `/balance`, `/subscriptions` and `/topup` (docs/adr/0103-telegram-channel.md,
 * amendment "the bot's commands"), in Hebrew and English, as plain text: no parse mode, so nothing a package name or a
 * login holds can turn into markup. Never a password or any other secret: a subscription reaches these functions as
 * `BotSubscription`, which has no field for one.
 */

/** Telegram refuses a message longer than this many characters (UTF-16 units never undercount them). */
export const TELEGRAM_MESSAGE_MAX_LENGTH = 4096;

/** The most subscriptions one `/subscriptions` answer lists; the rest are counted and left to the portal. */
export const BOT_SUBSCRIPTIONS_SHOWN = 20;

/** The statuses `/subscriptions` lists: the running ones (renewal on or off) and the paused one awaiting payment. */
export const BOT_SUBSCRIPTION_STATUSES = ['ACTIVE', 'UNSUBSCRIBED', 'GRACE'] as const;
export type BotSubscriptionStatus = (typeof BOT_SUBSCRIPTION_STATUSES)[number];

/** A subscription as the bot may tell it: what the portal's list shows, and nothing secret. */
export interface BotSubscription {
  /** The package's name when bought; null for the trial. */
  planName: string | null;
  status: BotSubscriptionStatus;
  /** ISO instant the current period ends (or ended, for a paused one); null when the service never dated it. */
  endDate: string | null;
  /** ISO instant a paused (`GRACE`) subscription's login is kept until; null otherwise. */
  graceEndsAt: string | null;
  /** The login at the streaming service. */
  login: string;
}

/** A person's current subscriptions, the first `BOT_SUBSCRIPTIONS_SHOWN` of them, and how many there are in all. */
export interface BotSubscriptions {
  subscriptions: readonly BotSubscription[];
  total: number;
}

/** The portal's pages the answers link to, built from `PUBLIC_URL` by the caller. */
export interface BotLinks {
  portal: string;
  /** The deposit page (`/payments/deposit`). */
  topUp: string;
  /** The packages page (`/packages`). */
  packages: string;
  /** The subscriptions list (`/subscriptions`). */
  subscriptions: string;
}

/** The commands the bot offers, in the order `/help` and Telegram's menu list them (`setMyCommands`). */
export const BOT_COMMANDS = Object.freeze([
  { command: 'balance', he: 'היתרה שלי', en: 'My balance' },
  {
    command: 'subscriptions',
    he: 'המנויים שלי, תאריכי הסיום ושמות המשתמש',
    en: 'My subscriptions, end dates and logins',
  },
  { command: 'topup', he: 'קישור להטענת יתרה', en: 'A link to top up my balance' },
  { command: 'help', he: 'מה הבוט יודע לעשות', en: 'What the bot can do' },
  { command: 'stop', he: 'ניתוק הצ׳אט מהחשבון', en: 'Unlink this chat from my account' },
] as const);

/** The menu Telegram shows for one language: what `setMyCommands` takes. */
export function botCommandMenu(language: Language): Array<{ command: string; description: string }> {
  return BOT_COMMANDS.map((entry) => ({ command: entry.command, description: entry[language] }));
}

/** `/help`: every command with what it does, and the portal for the rest. */
export function helpAnswer(language: Language, links: Pick<BotLinks, 'portal'>): string {
  // A Hebrew line would start with the Latin command and so read left to right: a right-to-left mark leads it.
  const lead = language === 'he' ? RLM : '';
  const lines = BOT_COMMANDS.map((entry) => `${lead}/${entry.command} — ${entry[language]}`);
  const rest =
    language === 'he' ? `כל השאר בפורטל: ${links.portal}` : `Everything else is in the portal: ${links.portal}`;
  return [language === 'he' ? 'פקודות:' : 'Commands:', ...lines, '', rest].join('\n');
}

/**
 * `/balance`: the balance in the portal's money format; below zero it is said as a debt, with the top-up link for
 * exactly the amount owed (as the renewal mails link it).
 */
export function balanceAnswer(balanceMinor: number, language: Language, links: Pick<BotLinks, 'topUp'>): string {
  if (balanceMinor < 0) {
    const owed = dollars(-balanceMinor, language);
    const link = `${links.topUp}?amountMinor=${-balanceMinor}`;
    return language === 'he'
      ? `יש לך חוב של ${owed}. לכיסוי החוב אפשר להטעין יתרה: ${link}`
      : `You owe ${owed}. To cover it, top up your balance: ${link}`;
  }
  const amount = dollars(balanceMinor, language);
  return language === 'he'
    ? `היתרה שלך: ${amount}. להטענת יתרה: /topup`
    : `Your balance: ${amount}. To top it up: /topup`;
}

/** `/topup`: the portal's deposit page. */
export function topUpAnswer(language: Language, links: Pick<BotLinks, 'topUp'>): string {
  return language === 'he'
    ? `להטענת יתרה (קריפטו או כרטיס) פתחו את דף ההפקדה בפורטל: ${links.topUp}`
    : `To top up your balance (crypto or card), open the deposit page in the portal: ${links.topUp}`;
}

/** `/balance`, `/subscriptions` or `/topup` asked by a staff account, which has no balance or subscription of its own. */
export function clientsOnlyAnswer(language: Language, links: Pick<BotLinks, 'portal'>): string {
  return language === 'he'
    ? `הפקודה הזו מיועדת ללקוחות. חשבון צוות עובד במסוף הניהול: ${links.portal}/admin`
    : `This command is for clients. A staff account works in the staff console: ${links.portal}/admin`;
}

/**
 * `/subscriptions`: each current subscription on a line of its own (package, status, end date in the person's
 * language, login), soonest end first as given. At most `BOT_SUBSCRIPTIONS_SHOWN`, and fewer when the message would
 * pass Telegram's `TELEGRAM_MESSAGE_MAX_LENGTH`; those left out are counted and the portal's list linked. None → a
 * sentence and the packages page.
 */
export function subscriptionsAnswer(current: BotSubscriptions, language: Language, links: BotLinks): string {
  if (current.total === 0 || current.subscriptions.length === 0)
    return language === 'he'
      ? `אין לך כרגע מנויים פעילים. החבילות בפורטל: ${links.packages}`
      : `You have no active subscriptions right now. The packages are in the portal: ${links.packages}`;
  const heading = language === 'he' ? 'המנויים שלך:' : 'Your subscriptions:';
  const footer = (left: number) =>
    left === 0
      ? language === 'he'
        ? `הכול בפורטל: ${links.subscriptions}`
        : `All of them in the portal: ${links.subscriptions}`
      : language === 'he'
        ? `ועוד ${left} בפורטל: ${links.subscriptions}`
        : `${left} more in the portal: ${links.subscriptions}`;
  const lines: string[] = [];
  // The footer's longest form (the largest count left out) is reserved before a line is added.
  const budget = TELEGRAM_MESSAGE_MAX_LENGTH - heading.length - footer(current.total).length - 4;
  let used = 0;
  for (const subscription of current.subscriptions.slice(0, BOT_SUBSCRIPTIONS_SHOWN)) {
    const line = subscriptionLine(subscription, language);
    if (used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  return [heading, ...lines, '', footer(current.total - lines.length)].join('\n');
}

function subscriptionLine(subscription: BotSubscription, language: Language): string {
  const name =
    subscription.planName === null ? (language === 'he' ? 'ניסיון' : 'Trial') : isolated(subscription.planName);
  const status = clientEnumLabel('subscriptionStatus', subscription.status, language);
  const login = `${language === 'he' ? 'שם משתמש' : 'Login'}: ${LRI}${plain(subscription.login)}${PDI}`;
  let when = '';
  if (subscription.status === 'GRACE' && subscription.graceEndsAt !== null)
    when =
      language === 'he'
        ? `, שם המשתמש נשמר עד ${day(subscription.graceEndsAt, language)}`
        : `, login kept until ${day(subscription.graceEndsAt, language)}`;
  else if (subscription.endDate !== null)
    when =
      language === 'he'
        ? `, עד ${day(subscription.endDate, language)}`
        : `, until ${day(subscription.endDate, language)}`;
  return `• ${name} — ${status}${when}. ${login}`;
}

/** Left-to-right, first-strong and pop-directional isolates: the plain-text `<bdi>`. */
const LRI = '\u2066';
const FSI = '\u2068';
const PDI = '\u2069';
/** The right-to-left mark. */
const RLM = '\u200f';

/**
 * Text someone typed (a package's name), kept to one line and isolated, so that its direction cannot reorder the
 * sentence around it and no line break or control character of its own reaches the message.
 */
function isolated(text: string): string {
  return `${FSI}${plain(text)}${PDI}`;
}

function plain(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\u202a-\u202e\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The portal's money format (proto's, for a left-to-right isolate), isolated as the portal's `<bdi dir="ltr">`. */
function dollars(amountMinor: number, language: Language): string {
  return `${LRI}${formatDollarsForIsolate(amountMinor / 100, language)}${PDI}`;
}

const DAY_FORMATS = new Map<Language, Intl.DateTimeFormat>();

/** A calendar day in UTC, the zone every period boundary is computed in, as the subscription mails write it. */
function day(iso: string, language: Language): string {
  let format = DAY_FORMATS.get(language);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(LANGUAGE_LOCALES[language], {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    DAY_FORMATS.set(language, format);
  }
  return format.format(new Date(iso));
}
