import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { Mailbox } from '@kupa/api/testing';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { onlyRowFound } from '../support/console-lists.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';

/**
 * The walking-skeleton journey (issue 2), once per language: a client signs up, confirms through the e-mailed link,
 * signs in and switches language; staff sign in to /admin, find the client, block them and see the block in the
 * activity log; the blocked client's open session stops working.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const CLIENT_PASSWORD = 'Client-Pass-1!';

const TEXT = {
  he: { blocked: 'חסום', appTitle: /מנויים|קופה/ },
  en: { blocked: 'Blocked', appTitle: /Subscriptions|Kupa/ },
} as const;

type Lang = keyof typeof TEXT;

let server: KupaServer;
let mailbox: Mailbox;
let browser: Browser;

async function htmlLang(page: Page): Promise<{ lang: string | null; dir: string | null }> {
  return page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
}

async function switchLanguage(page: Page, to: Lang): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.getByTestId('lang-toggle').click()]);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, to);
}

async function clientJourney(first: Lang, second: Lang, email: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/sign-up`);
  if (first === 'en') await switchLanguage(page, 'en');
  assert.deepEqual(await htmlLang(page), { lang: first, dir: first === 'he' ? 'rtl' : 'ltr' });

  await page.getByTestId('sign-up-email').fill(email);
  await page.getByTestId('sign-up-first-name').fill(first === 'he' ? 'דנה' : 'Dana');
  await page.getByTestId('sign-up-last-name').fill(first === 'he' ? 'כהן' : 'Cohen');
  await page.getByTestId('sign-up-password').fill(CLIENT_PASSWORD);
  await page.getByTestId('sign-up-confirm-password').fill(CLIENT_PASSWORD);
  await page.getByTestId('sign-up-terms').check();
  await screenshot(page, `${first}-01-sign-up`);
  await page.getByTestId('sign-up-submit').click();
  await page.getByTestId('sign-up-done').waitFor();

  const mail = await mailbox.waitFor(email);
  // The confirmation e-mail is written in the language the client signed up in.
  assert.match(mail.text, first === 'he' ? /[\u0590-\u05FF]/ : /confirm/i);
  const link = Mailbox.link(mail, `${server.baseUrl}/confirmation-token/`);
  await page.goto(link);
  await page.getByTestId('confirm-success').waitFor();
  await screenshot(page, `${first}-02-confirmed`);
  // The same link opened again says the account is already confirmed, not that the link is broken.
  await page.goto(link);
  await page.getByTestId('confirm-already').waitFor();

  await page.goto(`${server.baseUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(CLIENT_PASSWORD);
  await screenshot(page, `${first}-03-login`);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('sidebar').first().waitFor();
  await page.getByTestId('balance').waitFor();
  await screenshot(page, `${first}-04-home`);

  await switchLanguage(page, second);
  assert.deepEqual(await htmlLang(page), { lang: second, dir: second === 'he' ? 'rtl' : 'ltr' });
  await page.getByTestId('sidebar').first().waitFor();
  await page.getByTestId('nav-my-profile').first().click();
  await page.getByTestId('profile-email').waitFor();
  assert.equal((await page.getByTestId('profile-email').textContent())?.trim(), email);
  await screenshot(page, `${first}-05-profile-${second}`);

  // Staff block the client in the console, in the client's first language.
  const staff = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await staff.newPage();
  await admin.goto(`${server.baseUrl}/admin/`);
  await admin.getByTestId('login-email').waitFor();
  if (first === 'en') {
    await Promise.all([admin.waitForEvent('load'), admin.getByTestId('lang-toggle').click()]);
    await admin.waitForFunction(() => document.documentElement.lang === 'en');
  }
  assert.deepEqual(await htmlLang(admin), { lang: first, dir: first === 'he' ? 'rtl' : 'ltr' });
  await admin.getByTestId('login-email').fill(ADMIN_EMAIL);
  await admin.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await screenshot(admin, `${first}-06-admin-login`);
  await admin.getByTestId('login-submit').click();
  await admin.getByTestId('menu-clients').waitFor();
  await admin.getByTestId('menu-clients').click();
  const row = await onlyRowFound(admin, 'clients', email);
  await screenshot(admin, `${first}-07-admin-clients`);
  await row.click();
  await admin.getByTestId('status-select').waitFor();
  // The console's client page can mount twice while its first requests settle (an open bug, see the stop-15 note):
  // act once the network is quiet, so the click lands on the page that stays.
  await admin.waitForLoadState('networkidle');
  await admin.getByTestId('status-select').selectOption('BLOCKED');
  await admin.getByTestId('status-save').click();
  // Blocking asks first; the dialog names the account.
  const confirmBlock = admin.getByRole('dialog');
  await confirmBlock.getByText(email).waitFor();
  await confirmBlock.locator('.ra-confirm').click();
  await admin.waitForFunction(
    (label) => !!document.body.textContent && document.body.textContent.includes(label),
    TEXT[first].blocked,
  );
  await screenshot(admin, `${first}-08-admin-client-blocked`);

  await admin.getByTestId('menu-activity-log').click();
  const firstEntry = admin.getByTestId('activity-log-row').first();
  await firstEntry.waitFor();
  await screenshot(admin, `${first}-09-activity-log`);
  // The time cell: the row's other cells name people and payments as links of their own.
  await firstEntry.locator('td').first().click();
  const statusChange = admin.locator('[data-testid="activity-log-change"][data-field="status"]');
  await statusChange.waitFor();
  const before = (await statusChange.getByTestId('change-before').textContent()) ?? '';
  const afterValue = (await statusChange.getByTestId('change-after').textContent()) ?? '';
  assert.match(before, /ACTIVE|פעיל|Active/);
  assert.match(afterValue, /BLOCKED|חסום|Blocked/);
  await screenshot(admin, `${first}-10-activity-log-detail`);
  await staff.close();

  // The client's live session stops working: without a reload, the next screen's call is refused and the blocked
  // notice shows.
  await page.getByTestId('nav-payments').first().click();
  await page.getByTestId('blocked-notice').waitFor();
  await screenshot(page, `${first}-11-blocked-notice`);
  await context.close();
}

describe('walking skeleton journey', { timeout: 240_000 }, () => {
  before(async () => {
    mailbox = await Mailbox.start();
    server = await startKupaServer({ SMTP_URL: mailbox.url, ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.stop();
  });

  it('works in Hebrew first, then English', async () => {
    await clientJourney('he', 'en', 'dana.he@example.com');
  });

  it('works in English first, then Hebrew', async () => {
    await clientJourney('en', 'he', 'dana.en@example.com');
  });
});
