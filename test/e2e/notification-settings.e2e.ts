import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { FakeTelegram } from '@kupa/api/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describeFindings, seriousAccessibilityFindings } from '../support/accessibility.ts';
import { apiCall, signInToken } from '../support/api-client.ts';
import { ARTIFACTS_DIR, launchBrowser } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { horizontalOverflow, settle, showColorScheme } from '../support/layout.ts';

/**
 * Issue 34's profile screens, as a person uses them (docs/adr/0102-notification-preferences.md,
 * docs/adr/0103-telegram-channel.md): the portal's Telegram card links a chat through the bot (the built server
 * polls a fake Bot API, to which the journey sends the person's `/start`), the Notifications section saves the
 * whole setting and shows it again after a reload, the console shows the client's choice read only on the client's
 * Notifications tab, and a staff member's own settings page has the Telegram card. Once linked, a deposit staff record
 * reaches the chat and the portal's notifications list (ADR 0104, 0105). Each state is shown in Hebrew and
 * English, light and dark, phone and desktop: nothing may scroll sideways, axe-core finds nothing serious, and the
 * screenshots go to test/artifacts/ (`settings-<screen>-<lang>-<theme>-<width>.png`).
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const PASSWORD = 'Client-Pass-1!';

type Lang = 'he' | 'en';
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;
const VARIANTS = [
  { width: 'phone', scheme: 'light' },
  { width: 'phone', scheme: 'dark' },
  { width: 'desktop', scheme: 'dark' },
  { width: 'desktop', scheme: 'light' },
] as const;

let server: KupaServer;
let telegram: FakeTelegram;
let browser: Browser;
let adminToken: string;

/** A client whose account speaks `lang`: the bot and the notices use the account's language, not the browser's. */
async function createClient(email: string, firstName: string, lastName: string, lang: Lang): Promise<string> {
  const created = await apiCall<{ userUuid: string }>(
    server.baseUrl,
    'POST',
    '/users',
    { email, firstName, lastName, role: 'CLIENT', password: PASSWORD, language: lang },
    adminToken,
  );
  return created.userUuid;
}

async function newContext(lang: Lang): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: lang === 'he' ? 'he-IL' : 'en-GB' });
  await context.addInitScript((value) => {
    localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
  }, lang);
  // The machine reaches no Telegram: the tab the link opens gets a stand-in page.
  await context.route('https://t.me/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Telegram</title><p>Telegram</p>' }),
  );
  return context;
}

/**
 * Shows the parts of a screen in every variant: checks the page for sideways scrolling in each, runs axe-core once
 * (dark phone in Hebrew, light desktop in English), and saves a screenshot of each part. Answers what went wrong.
 */
async function showEveryVariant(page: Page, name: string, lang: Lang, parts: Locator[]): Promise<string[]> {
  const problems: string[] = [];
  for (const variant of VARIANTS) {
    await page.setViewportSize(VIEWPORTS[variant.width]);
    await showColorScheme(page, variant.scheme);
    await settle(page);
    const label = `settings-${name}-${lang}-${variant.scheme}-${variant.width}`;
    const overflow = await horizontalOverflow(page);
    if (overflow)
      problems.push(
        `${label}: ${overflow.scrollWidth} px wide in ${overflow.innerWidth}: ${overflow.offenders.join()}`,
      );
    const axe = lang === 'he' ? variant.width === 'phone' && variant.scheme === 'dark' : variant.width === 'desktop';
    if (axe && variant.scheme === (lang === 'he' ? 'dark' : 'light')) {
      const findings = await seriousAccessibilityFindings(page);
      if (findings.length > 0) problems.push(describeFindings(label, findings));
    }
    // From the top: the fixed app bar is painted where the window is scrolled to, and should stay above the parts.
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const [index, part] of parts.entries()) {
      // Cut from a full-page picture: an element screenshot scrolls, and the fixed app bar would land inside it.
      const clip = await part.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return { x: box.x + window.scrollX, y: box.y + window.scrollY, width: box.width, height: box.height };
      });
      const path = `${ARTIFACTS_DIR}/${label}${parts.length > 1 ? `-${index + 1}` : ''}.png`;
      await page.screenshot({ path, fullPage: true, clip });
    }
  }
  await page.setViewportSize(VIEWPORTS.phone);
  await showColorScheme(page, 'light');
  return problems;
}

async function signInToPortal(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('balance').waitFor();
}

async function signInToConsole(page: Page): Promise<void> {
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(`${server.baseUrl}/admin/login`);
  await page.getByTestId('login-email').fill(ADMIN_EMAIL);
  await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu-clients').waitFor();
  await page.setViewportSize(VIEWPORTS.phone);
}

async function journey(lang: Lang, chatId: number): Promise<void> {
  const email = `settings.${lang}@example.com`;
  const clientUuid = await createClient(email, lang === 'he' ? 'נועה' : 'Noa', lang === 'he' ? 'כהן' : 'Cohen', lang);
  const context = await newContext(lang);
  const page = await context.newPage();
  const problems: string[] = [];
  const card = page.getByTestId('telegram-card');
  const section = page.getByTestId('notification-settings');

  await signInToPortal(page, email);
  await page.goto(`${server.baseUrl}/my-profile`);
  await section.getByTestId('notification-channels').waitFor();
  await card.getByTestId('telegram-link').waitFor();
  assert.equal(await page.getByTestId('notification-payments-telegram').isDisabled(), true);
  assert.equal(await page.getByTestId('notification-renewal-results-portal').count(), 0);
  problems.push(...(await showEveryVariant(page, 'profile-not-linked', lang, [card, section])));

  // Link: the click opens the bot's deep link in a new tab and the card waits for Start.
  const opened = context.waitForEvent('page');
  await card.getByTestId('telegram-link').click();
  const tab = await opened;
  await tab.waitForURL(/^https:\/\/t\.me\//);
  const deepLink = await card.getByTestId('telegram-open').getAttribute('href');
  assert.ok(deepLink);
  assert.equal(tab.url(), deepLink);
  await tab.close();
  problems.push(...(await showEveryVariant(page, 'telegram-waiting', lang, [card])));

  const token = new URL(deepLink).searchParams.get('start');
  await telegram.userSays({ id: chatId, username: `noa_${lang}`, languageCode: lang }, `/start ${token}`);
  await card.getByTestId('telegram-username').waitFor({ timeout: 15_000 });
  assert.match((await card.getByTestId('telegram-username').textContent()) ?? '', new RegExp(`@noa_${lang}`));
  assert.equal(await page.getByTestId('notification-payments-telegram').isEnabled(), true);

  // A deposit arrives: staff record $12.34 for the client, and the notice reaches the linked chat (the fake Bot API
  // took it from the built server's Telegram outbox, ADR 0104) and the portal's notifications list (ADR 0105).
  const sentBefore = telegram.messagesTo(chatId).length;
  await apiCall(
    server.baseUrl,
    'POST',
    '/payments',
    { userUuid: clientUuid, amount: 12.34, action: 'DEPOSIT', comment: 'Journey: a deposit to be told' },
    adminToken,
  );
  const [told] = (await telegram.waitForMessages(chatId, sentBefore + 1, 30_000)).slice(sentBefore);
  assert.ok(told, 'the deposit reached the linked chat');
  assert.match(told.text, lang === 'he' ? /12\.34[\s\S]*נכנסו ליתרה שלך/ : /\$12\.34 arrived on your Kupa balance/);
  assert.match(told.text, new RegExp(`${server.baseUrl}/payments/`));
  await page.goto(`${server.baseUrl}/notifications`);
  const notice = page.getByTestId('notification').filter({ hasText: '12.34' });
  await notice.first().waitFor({ timeout: 15_000 });
  problems.push(...(await showEveryVariant(page, 'deposit-notice', lang, [page.getByTestId('notifications-list')])));
  await page.goto(`${server.baseUrl}/my-profile`);
  await section.getByTestId('notification-channels').waitFor();

  // Save a whole setting, and find it again after a reload.
  await page.getByTestId('notification-announcements-email').uncheck();
  await page.getByTestId('notification-payments-telegram').uncheck();
  await page.getByTestId('notification-lead-days').fill('10');
  await page.getByTestId('notification-threshold').fill('25');
  await page.getByTestId('notification-quiet').check();
  await page.getByTestId('notification-time-zone').selectOption('Asia/Jerusalem');
  await page.getByTestId('notification-settings-save').click();
  await page.getByTestId('toast').waitFor();
  await page.reload();
  await section.getByTestId('notification-channels').waitFor();
  await card.getByTestId('telegram-username').waitFor();
  assert.equal(await page.getByTestId('notification-announcements-email').isChecked(), false);
  assert.equal(await page.getByTestId('notification-announcements-portal').isChecked(), true);
  assert.equal(await page.getByTestId('notification-payments-telegram').isChecked(), false);
  assert.equal(await page.getByTestId('notification-threshold').inputValue(), '25.00');
  assert.equal(await page.getByTestId('notification-time-zone').inputValue(), 'Asia/Jerusalem');
  problems.push(...(await showEveryVariant(page, 'profile-linked', lang, [card, section])));

  // A refusal of the API said in its words: a sign-in alert off by mail and in the portal.
  await page.getByTestId('notification-new-device-email').uncheck();
  await page.getByTestId('notification-new-device-portal').uncheck();
  await page.getByTestId('notification-settings-save').click();
  await page.getByTestId('notification-settings-error').waitFor();
  problems.push(...(await showEveryVariant(page, 'profile-refused', lang, [section])));

  // The console: the client's choice, read only, and a staff member's own Telegram card.
  await signInToConsole(page);
  await page.goto(`${server.baseUrl}/admin/clients/${clientUuid}/show/notifications`);
  const panel = page.getByTestId('client-notification-preferences');
  await panel.getByTestId('client-preference-channels').waitFor();
  assert.match((await panel.getByTestId('client-preference-threshold').textContent()) ?? '', /25\.00/);
  assert.equal(await panel.getByTestId('client-preference-announcements-email').getAttribute('data-state'), 'off');
  problems.push(...(await showEveryVariant(page, 'console-client-preferences', lang, [page.locator('main')])));
  await page.goto(`${server.baseUrl}/admin/two-factor`);
  await page.getByTestId('telegram-card').getByTestId('telegram-link').waitFor();
  problems.push(...(await showEveryVariant(page, 'console-own-telegram', lang, [page.locator('main')])));

  await context.close();
  assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
}

describe('notification settings and the Telegram card, both apps', { timeout: 600_000 }, () => {
  before(async () => {
    telegram = await FakeTelegram.start({ longPollCapMs: 200 });
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD, ...telegram.env() });
    adminToken = await signInToken(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await telegram?.stop();
  });

  it('in Hebrew', async () => {
    await journey('he', 7001);
  });

  it('in English', async () => {
    await journey('en', 7002);
  });
});
