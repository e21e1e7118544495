import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type AxeFinding, describeFindings, seriousAccessibilityFindings } from '../support/accessibility.ts';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { horizontalOverflow, settle, showColorScheme } from '../support/layout.ts';

/**
 * The subscriptions journey (issue 9), once in Hebrew and once in English: the admin creates a package in the console
 * and finds it in the activity log, books a deposit for a client, the client buys the package with the balance, waits
 * while the streaming service opens the account (PENDING, then ACTIVE), changes its password and cancels it; the
 * admin's dashboard then counts the subscription and its revenue. The new screens are photographed at both widths and
 * in both palettes into test/artifacts/ (`subs-<lang>-…`), checked for sideways scrolling, and run through axe-core.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
/** Where the streaming service is reached, which a subscription's page tells its owner (ADR 0077). */
const STREAMING_SITE_URL = 'https://watch.example/start';
const STREAMING_IOS_APP_URL = 'https://apps.apple.com/app/id000000001';
const STREAMING_ANDROID_APP_URL = 'https://play.google.com/store/apps/details?id=example.watch';
const PASSWORD = 'Client-Pass-1!';
/** How long the journey waits for the streaming service to open the account before it says provisioning is stuck. */
const ACTIVE_TIMEOUT_MS = Number(process.env.SUBSCRIPTION_ACTIVE_TIMEOUT_MS ?? 60_000);

type Lang = 'he' | 'en';
type ColorScheme = 'light' | 'dark';

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
} as const;
type Width = keyof typeof VIEWPORTS;

interface PackageSpec {
  name: string;
  /** The duration's label in the console's select, as the admin reads it. */
  durationLabel: RegExp;
  price: number;
  recurrent: boolean;
  features: string[];
}

const PACKAGES: Record<Lang, PackageSpec> = {
  he: {
    name: 'סטרימינג בסיסי',
    durationLabel: /^חודשי$/,
    price: 29.9,
    recurrent: true,
    features: ['HD', 'שני מסכים'],
  },
  en: {
    name: 'Quarterly Plus',
    durationLabel: /^Quarterly$/,
    price: 45.5,
    recurrent: false,
    features: ['4K', 'Three screens'],
  },
};

let server: KupaServer;
let browser: Browser;
/** Problems seen on the screens (sideways scrolling, axe findings), reported at the end of each language's run. */
let screenProblems: string[] = [];

async function newContext(lang: Lang | null, viewport: Width = 'desktop'): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    locale: lang === 'en' ? 'en-GB' : 'he-IL',
  });
  // Both apps read the persisted language store before they render; without one, they open in Hebrew.
  if (lang) {
    await context.addInitScript((value) => {
      localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
    }, lang);
  }
  return context;
}

async function textOf(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).first().textContent()) ?? '';
}

/**
 * Photographs the current screen in every width and palette given (`subs-<lang>-<name>-<scheme>-<width>.png`),
 * checks that it does not scroll sideways, and runs axe-core once (on the first variant).
 */
async function photograph(
  page: Page,
  lang: Lang,
  name: string,
  variants: ReadonlyArray<{ width: Width; scheme: ColorScheme }>,
  { axe = true }: { axe?: boolean } = {},
): Promise<void> {
  for (const [index, variant] of variants.entries()) {
    await page.setViewportSize(VIEWPORTS[variant.width]);
    await showColorScheme(page, variant.scheme);
    await settle(page);
    const label = `subs-${lang}-${name}-${variant.scheme}-${variant.width}`;
    const overflow = await horizontalOverflow(page);
    if (overflow) {
      screenProblems.push(
        `${label}: the page is ${overflow.scrollWidth} px wide in a ${overflow.innerWidth} px viewport; ` +
          `reaching out: ${overflow.offenders.join(', ')}`,
      );
    }
    if (axe && index === 0) {
      const findings: AxeFinding[] = await seriousAccessibilityFindings(page);
      if (findings.length > 0) screenProblems.push(describeFindings(label, findings));
    }
    await screenshot(page, label);
  }
  // Back to the journey's own layout.
  await page.setViewportSize(VIEWPORTS.desktop);
  await showColorScheme(page, 'light');
}

const ALL_VARIANTS = [
  { width: 'desktop', scheme: 'light' },
  { width: 'phone', scheme: 'light' },
  { width: 'desktop', scheme: 'dark' },
  { width: 'phone', scheme: 'dark' },
] as const;
const LIGHT_VARIANTS = [
  { width: 'desktop', scheme: 'light' },
  { width: 'phone', scheme: 'light' },
] as const;

async function signInToConsole(page: Page): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/`);
  await page.getByTestId('login-email').fill(ADMIN_EMAIL);
  await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  // The admin lands on the dashboard.
  await page.getByTestId('dashboard').waitFor();
  await page.getByTestId('dashboard-active-value').waitFor();
}

interface DashboardFigures {
  active: number;
  revenue: number;
}

async function dashboardFigures(page: Page): Promise<DashboardFigures> {
  await page.getByTestId('dashboard-active-value').waitFor();
  const active = Number((await textOf(page, 'dashboard-active-value')).replace(/[^\d]/g, ''));
  const revenue = Number(
    await page.getByTestId('dashboard-revenue-value').locator('[data-amount]').first().getAttribute('data-amount'),
  );
  return { active, revenue };
}

async function createPackageInConsole(admin: Page, lang: Lang, plan: PackageSpec): Promise<void> {
  await admin.getByTestId('menu-packages').click();
  await admin.getByTestId('package-create').click();
  await admin.getByTestId('package-name').fill(plan.name);
  await admin.getByTestId('package-duration').click();
  await admin.getByRole('option', { name: plan.durationLabel }).click();
  await admin.getByTestId('package-price').fill(String(plan.price));
  const recurrent = admin.locator('input[name="isRecurrent"]');
  if ((await recurrent.isChecked()) !== plan.recurrent) await recurrent.click();
  const features = admin.getByRole('combobox', { name: lang === 'he' ? 'מאפיינים' : 'Features' });
  for (const feature of plan.features) {
    await features.fill(feature);
    await features.press('Enter');
  }
  await admin
    .getByTestId('package-description')
    .fill(lang === 'he' ? 'חבילה לבדיקת המסע' : 'A package for the journey');
  await screenshot(admin, `subs-${lang}-console-package-create`);
  await admin.locator('form button[type="submit"]').first().click();
  // The package shows in the list.
  await admin.getByTestId('menu-packages').click();
  await admin.waitForFunction(
    (name) =>
      [...document.querySelectorAll('[data-testid="packages-row"], [data-testid="packages-card"]')].some((row) =>
        (row.textContent ?? '').includes(name),
      ),
    plan.name,
  );
  await screenshot(admin, `subs-${lang}-console-packages`);
}

async function findPackageInActivityLog(admin: Page, lang: Lang, plan: PackageSpec): Promise<void> {
  await admin.getByTestId('menu-activity-log').click();
  await admin.getByTestId('activity-log-sentence').first().waitFor();
  const sentence = admin.getByTestId('activity-log-sentence').filter({ hasText: plan.name }).first();
  await sentence.waitFor();
  const text = (await sentence.textContent()) ?? '';
  const created = lang === 'he' ? /נוצר|נוספה|נוצרה|יצירה/ : /created/i;
  assert.match(text, created, `the activity log says the package was created: ${text}`);
  await screenshot(admin, `subs-${lang}-console-activity-log`);
}

/**
 * A manual deposit, booked through the API as the console books it (`POST /payments`); the ledger journey drives the
 * console's deposit dialog. Here, opened right after the activity log in Hebrew, the client's page re-mounted for
 * seconds and the dialog's button kept vanishing under the click: a console issue still to be found.
 */
async function deposit(adminToken: string, userUuid: string, lang: Lang, amount: number): Promise<void> {
  await apiCall(
    server.baseUrl,
    'POST',
    '/payments',
    { userUuid, amount, action: 'DEPOSIT', comment: lang === 'he' ? 'הפקדה לקניית חבילה' : 'Deposit for a package' },
    adminToken,
  );
}

async function clientSignIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('balance').waitFor();
}

async function documentDirection(page: Page): Promise<string> {
  return page.evaluate(() => document.documentElement.dir);
}

async function subscriptionStatus(page: Page): Promise<string | null> {
  return page.getByTestId('subscription-detail-status').locator('[data-value]').first().getAttribute('data-value');
}

/** The client's part: buy with balance, see it PENDING then ACTIVE, change its password, cancel it. */
async function clientJourney(client: Page, lang: Lang, plan: PackageSpec): Promise<string> {
  await client.goto(`${server.baseUrl}/packages`);
  const card = client.getByTestId('plan-card').filter({ hasText: plan.name });
  await card.waitFor();
  await photograph(client, lang, 'client-packages', ALL_VARIANTS);

  await card.getByTestId('plan-buy').click();
  await client.getByTestId('buy-dialog').waitFor();
  await client.getByTestId('buy-login').fill(`journey.${lang}.${Date.now().toString(36)}`);
  await client.getByTestId('buy-password').fill('Stream-Pass-1');
  await client.getByTestId('buy-confirm-password').fill('Stream-Pass-1');
  const summary = await textOf(client, 'buy-summary');
  assert.ok(summary.includes(plan.name), `the dialog names the package: ${summary}`);
  await photograph(client, lang, 'client-buy-dialog', ALL_VARIANTS);
  await client.getByTestId('buy-submit').click();

  // The new subscription's page, first PENDING while the streaming service opens the account.
  await client.waitForURL(/\/subscriptions\/[0-9a-f-]{36}$/);
  const subscriptionId = client.url().split('/').pop() ?? '';
  await client.getByTestId('subscription-detail').waitFor();
  const first = await subscriptionStatus(client);
  assert.ok(
    first === 'PENDING' || first === 'ACTIVE',
    `a bought subscription starts PENDING (or is already active): ${first}`,
  );
  if (first === 'PENDING') {
    await client.getByTestId('subscription-pending').waitFor();
    await screenshot(client, `subs-${lang}-client-subscription-pending`);
  }
  try {
    await client.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="subscription-detail-status"] [data-value]')
          ?.getAttribute('data-value') === 'ACTIVE',
      undefined,
      { timeout: ACTIVE_TIMEOUT_MS },
    );
  } catch {
    await screenshot(client, `subs-${lang}-client-subscription-stuck`);
    assert.fail(
      `The subscription stayed ${await subscriptionStatus(client)} for ${ACTIVE_TIMEOUT_MS / 1000} s: the streaming ` +
        'service never opened the account (is the provisioning processor running?)',
    );
  }
  assert.equal(await client.getByTestId('subscription-pending').count(), 0, 'the pending notice goes away');
  // How to connect: the configured site with a QR code of it, and both apps.
  const connect = client.getByTestId('subscription-connect');
  await connect.waitFor();
  assert.equal(await client.getByTestId('subscription-connect-site').getAttribute('href'), STREAMING_SITE_URL);
  assert.equal(await client.getByTestId('subscription-connect-qr').getAttribute('data-value'), STREAMING_SITE_URL);
  assert.equal(await client.getByTestId('subscription-connect-ios').getAttribute('href'), STREAMING_IOS_APP_URL);
  assert.equal(
    await client.getByTestId('subscription-connect-android').getAttribute('href'),
    STREAMING_ANDROID_APP_URL,
  );
  await photograph(client, lang, 'client-subscription', ALL_VARIANTS);

  // A new password for the streaming account.
  await client.getByTestId('subscription-change-password').click();
  await client.getByTestId('change-password-password').fill('Stream-Pass-2');
  await client.getByTestId('change-password-confirm-password').fill('Stream-Pass-2');
  await client.getByTestId('change-password-submit').click();
  await client
    .getByTestId('toast')
    .filter({ hasText: lang === 'he' ? 'הסיסמה עודכנה' : 'Password changed' })
    .waitFor();
  await client.getByTestId('change-password-dialog').waitFor({ state: 'hidden' });

  // Cancelling asks first and then says until when it stays active.
  const endDate = (await textOf(client, 'subscription-detail-end')).trim();
  await client.getByTestId('subscription-cancel').click();
  const confirmation = await textOf(client, 'cancel-subscription-text');
  assert.ok(confirmation.includes(endDate), `the confirmation names the end date ${endDate}: ${confirmation}`);
  await screenshot(client, `subs-${lang}-client-cancel-confirm`);
  await client.getByTestId('cancel-subscription-confirm').click();
  const notice = client.getByTestId('subscription-cancel-notice');
  await notice.waitFor();
  const noticeText = (await notice.textContent()) ?? '';
  assert.ok(noticeText.includes(endDate), `the notice says it stays active until ${endDate}: ${noticeText}`);
  assert.match(noticeText, lang === 'he' ? /בוטל/ : /cancel/i);
  assert.equal(await subscriptionStatus(client), 'CANCELLING', 'a cancelled subscription reads so, not a plain ACTIVE');
  assert.equal(await client.getByTestId('subscription-cancel').count(), 0, 'it cannot be cancelled twice');
  assert.equal(await client.getByTestId('subscription-renew').count(), 0, 'a cancelled one offers Resume, not Renew');
  await photograph(client, lang, 'client-subscription-cancelled', ALL_VARIANTS);

  // Resuming before the end withdraws the cancellation: ACTIVE again, and Renew offered again.
  await client.getByTestId('subscription-resume').click();
  await client.getByTestId('resume-subscription-confirm').click();
  await client.getByTestId('subscription-cancel-notice').waitFor({ state: 'detached' });
  assert.equal(await subscriptionStatus(client), 'ACTIVE', 'a resumed subscription is plainly active again');
  // Whether it renews by itself is its package's; it no longer reads as stopped.
  assert.doesNotMatch(await textOf(client, 'subscription-detail-recurrent'), lang === 'he' ? /הופסק/ : /stopped/);
  await client.getByTestId('subscription-renew').waitFor();
  await photograph(client, lang, 'client-subscription-resumed', ALL_VARIANTS);

  // The list, referrals and help.
  await client.goto(`${server.baseUrl}/subscriptions`);
  await client.getByTestId('subscriptions-row').filter({ hasText: plan.name }).first().waitFor();
  await photograph(client, lang, 'client-subscriptions', ALL_VARIANTS);
  await client.goto(`${server.baseUrl}/referrals`);
  await client.getByTestId('referrals-profile-id').waitFor();
  await photograph(client, lang, 'client-referrals', ALL_VARIANTS);
  await client.goto(`${server.baseUrl}/help`);
  await client.getByTestId('faq-item').first().waitFor();
  await photograph(client, lang, 'client-help', ALL_VARIANTS);
  return subscriptionId;
}

async function subscriptionsJourney(lang: Lang): Promise<void> {
  screenProblems = [];
  const plan = PACKAGES[lang];
  const adminToken = await signInToken(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const email = `buyer.${lang}@example.com`;
  const { userUuid } = await apiCall<{ userUuid: string }>(
    server.baseUrl,
    'POST',
    '/users',
    { email, firstName: lang === 'he' ? 'מאיה' : 'Maya', lastName: 'Journey', role: 'CLIENT', password: PASSWORD },
    adminToken,
  );

  // The admin signs in to the dashboard, creates the package and finds it in the activity log.
  const adminContext = await newContext(lang);
  const admin = await adminContext.newPage();
  await signInToConsole(admin);
  assert.equal(await documentDirection(admin), lang === 'he' ? 'rtl' : 'ltr');
  const before = await dashboardFigures(admin);
  await createPackageInConsole(admin, lang, plan);
  await findPackageInActivityLog(admin, lang, plan);
  await deposit(adminToken, userUuid, lang, 100);

  // The client: in Hebrew by default (right to left); the English client switches language in the app.
  const clientContext = await newContext(null);
  const client = await clientContext.newPage();
  await clientSignIn(client, email);
  assert.equal(await documentDirection(client), 'rtl', 'the client app opens in Hebrew, right to left');
  if (lang === 'en') {
    await client.getByTestId('lang-toggle').click();
    await client.waitForFunction(() => document.documentElement.dir === 'ltr');
    await client.getByTestId('balance').waitFor();
    assert.equal(await client.evaluate(() => document.documentElement.lang), 'en');
  }
  const subscriptionId = await clientJourney(client, lang, plan);

  // The dashboard counts the subscription and its price.
  await admin.getByTestId('menu-dashboard').click();
  await admin.getByTestId('dashboard-active-value').waitFor();
  const afterPurchase = await dashboardFigures(admin);
  assert.ok(afterPurchase.active >= 1, `the dashboard counts an active subscription: ${afterPurchase.active}`);
  assert.ok(
    afterPurchase.active >= before.active + 1,
    `active subscriptions went from ${before.active} to ${afterPurchase.active}`,
  );
  assert.ok(
    Math.abs(afterPurchase.revenue - before.revenue - plan.price) < 0.005,
    `revenue this month grew by the price ${plan.price}: ${before.revenue} → ${afterPurchase.revenue}`,
  );
  await photograph(admin, lang, 'console-dashboard', ALL_VARIANTS);
  // Its chips ("new: nothing last month") are read whole, at both widths, not cut off with an ellipsis.
  for (const width of ['desktop', 'phone'] as const) {
    await admin.setViewportSize(VIEWPORTS[width]);
    await settle(admin);
    const clipped = await admin.evaluate(() =>
      [...document.querySelectorAll('[data-testid="dashboard"] .MuiChip-label')]
        .filter((label) => label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent ?? ''),
    );
    assert.deepEqual(clipped, [], `dashboard chips cut off at ${width} width`);
  }
  await admin.setViewportSize(VIEWPORTS.desktop);

  // The subscription in the console: the list, its page, and the client's tab.
  await admin.goto(`${server.baseUrl}/admin/subscriptions`);
  await admin.getByTestId('subscriptions-row').first().waitFor();
  await photograph(admin, lang, 'console-subscriptions', ALL_VARIANTS);
  await admin.goto(`${server.baseUrl}/admin/subscriptions/${subscriptionId}/show`);
  await admin.getByTestId('subscription-user-link').waitFor();
  await photograph(admin, lang, 'console-subscription', LIGHT_VARIANTS);
  await admin.goto(`${server.baseUrl}/admin/clients/${userUuid}/show/subscriptions`);
  await admin.getByTestId('client-subscriptions-row').first().waitFor();
  await photograph(admin, lang, 'console-client-subscriptions', LIGHT_VARIANTS);

  await adminContext.close();
  await clientContext.close();
  assert.deepEqual(screenProblems, [], `\n${screenProblems.join('\n')}`);
}

describe('subscriptions journey', { timeout: 900_000 }, () => {
  before(async () => {
    server = await startKupaServer({
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      STREAMING_SITE_URL,
      STREAMING_IOS_APP_URL,
      STREAMING_ANDROID_APP_URL,
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the admin creates a package; a client buys it, changes its password and cancels it, in Hebrew', async () => {
    await subscriptionsJourney('he');
  });

  it('the same in English, after switching the client app to English', async () => {
    await subscriptionsJourney('en');
  });
});
