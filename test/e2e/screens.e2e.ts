import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type AxeFinding, describeFindings, seriousAccessibilityFindings } from '../support/accessibility.ts';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { horizontalOverflow, settle, showColorScheme } from '../support/layout.ts';

/**
 * Every screen of both apps, as people see them (issue 8): in Hebrew and English, light and dark, at desktop width and
 * on a phone. The client's screens include the states issue 30 added: a payment naming the package it bought, a
 * transfer naming the other side, a subscription's "How to connect" (STREAMING_* configured), its renew dialog (from
 * the balance, and by crypto since issue 31), a cancelled subscription still running (in the list, and its page
 * offering to resume it), and the transfer form of a client with nothing to send. On each screen the journey checks that nothing scrolls sideways at either width, runs
 * axe-core, and saves a screenshot `<app>-<screen>-<lang>-<theme>-<width>.png` into test/artifacts/.
 *
 * To keep the run short, each screen is opened once per language, at phone width; the journey then switches the
 * colour scheme (both apps follow the system's unless told otherwise) and widens the viewport in place. The overflow
 * check runs on all four variants. axe-core, the slow part, runs once per screen and language: on the dark phone
 * screen in Hebrew and on the light desktop screen in English, so that every screen is checked in both languages,
 * both palettes and both layouts.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const PASSWORD = 'Client-Pass-1!';
const CLIENT_EMAIL = 'dana.levi@example.com';
const RECIPIENT_EMAIL = 'noa.bar@example.com';
/** A client with nothing on the balance, whose transfer form says why it cannot send. */
const EMPTY_BALANCE_EMAIL = 'yael.cohen@example.com';
/** Where the streaming service is reached: the sidebar links the site, a subscription's page shows all three. */
const STREAMING = {
  STREAMING_SITE_URL: 'https://watch.example/start',
  STREAMING_IOS_APP_URL: 'https://apps.apple.com/app/id000000001',
  STREAMING_ANDROID_APP_URL: 'https://play.google.com/store/apps/details?id=example.watch',
};

type Lang = 'he' | 'en';
type ColorScheme = 'light' | 'dark';

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
} as const;
type Width = keyof typeof VIEWPORTS;

/** The order each screen is shown in. */
const VARIANTS: ReadonlyArray<{ width: Width; scheme: ColorScheme }> = [
  { width: 'phone', scheme: 'light' },
  { width: 'phone', scheme: 'dark' },
  { width: 'desktop', scheme: 'dark' },
  { width: 'desktop', scheme: 'light' },
];

/** The variant axe-core checks, per language (on a drawer, the phone in the same palette). */
const AXE_VARIANT: Readonly<Record<Lang, { width: Width; scheme: ColorScheme }>> = {
  he: { width: 'phone', scheme: 'dark' },
  en: { width: 'desktop', scheme: 'light' },
};

interface Screen {
  app: 'client' | 'console';
  name: string;
  path: string;
  /** A selector that shows once the screen has its data, at phone width (where each screen opens). */
  ready: string;
  /** What to open once the screen is ready (a drawer), for a screen that exists only on a phone. */
  open?: (page: Page) => Promise<void>;
  /** What to open once the screen is ready (a dialog), shown at every width and in both palettes. */
  dialog?: (page: Page) => Promise<void>;
}

interface Seed {
  clientUuid: string;
  packageId: string;
  subscriptionId: string;
  /** A subscription cancelled but still running to its end date, which offers to resume it. */
  cancelledSubscriptionId: string;
  paymentId: number;
  /** The payment that bought the package from the balance, which names the package. */
  purchasePaymentId: number;
  /** The client's transfer out, which names the other side. */
  transferPaymentId: number;
  auditLogId: string;
}

let server: KupaServer;
let browser: Browser;
let seed: Seed;

async function seedData(): Promise<Seed> {
  const base = server.baseUrl;
  const adminToken = await signInToken(base, ADMIN_EMAIL, ADMIN_PASSWORD);
  const createClient = async (email: string, firstName: string, lastName: string) =>
    (
      await apiCall<{ userUuid: string }>(
        base,
        'POST',
        '/users',
        { email, firstName, lastName, role: 'CLIENT', password: PASSWORD },
        adminToken,
      )
    ).userUuid;
  const clientUuid = await createClient(CLIENT_EMAIL, 'דנה', 'לוי');
  await createClient(RECIPIENT_EMAIL, 'Noa', 'Bar');
  await createClient(EMPTY_BALANCE_EMAIL, 'יעל', 'כהן');
  const book = async (action: 'DEPOSIT' | 'WITHDRAW', amount: number, comment: string) =>
    apiCall<{ paymentId: number }>(
      base,
      'POST',
      '/payments',
      { userUuid: clientUuid, amount, action, comment },
      adminToken,
    );
  // Enough for both packages below and a renewal of the first from the balance, so its dialog shows the plain case.
  const deposit = await book('DEPOSIT', 400, 'הפקדה בהעברה בנקאית');
  await book('WITHDRAW', 20, 'Refund of an overpayment');
  const failed = await book('DEPOSIT', 15.5, 'Cheque');
  await apiCall(base, 'PUT', `/payments/${failed.paymentId}/status`, { status: 'FAILED' }, adminToken);
  const clientToken = await signInToken(base, CLIENT_EMAIL, PASSWORD);
  const transfer = await apiCall<{ paymentId: number }>(
    base,
    'POST',
    '/payments/transfer',
    { recipient: RECIPIENT_EMAIL, amount: 40 },
    clientToken,
  );
  // A voucher batch sold at a fair, one code of it redeemed by the client (ADR 0089).
  const vouchers = await apiCall<{ batch: { id: string }; codes: string[] }>(
    base,
    'POST',
    '/vouchers/batches',
    { label: 'יריד החורף', count: 5, amount: 25 },
    adminToken,
  );
  await apiCall(
    base,
    'POST',
    `/vouchers/batches/${vouchers.batch.id}/funding`,
    { funding: 'SOLD', comment: 'Paid in cash at the fair' },
    adminToken,
  );
  await apiCall(base, 'POST', '/vouchers/redeem', { code: vouchers.codes[0] }, clientToken);
  await apiCall(base, 'POST', '/vouchers/batches', { label: 'Launch party', count: 3, amount: 10 }, adminToken);
  await apiCall(base, 'POST', `/users/${clientUuid}/notes`, { text: 'ביקשה חשבונית על ההפקדה האחרונה.' }, adminToken);
  await apiCall(base, 'POST', `/users/${clientUuid}/notes`, { text: 'Prefers e-mail over phone calls.' }, adminToken);
  // Packages are bilingual (docs/adr/0075-demo-catalogue-and-bilingual-packages.md): each language's screenshots show
  // that language's name and description.
  const createPackage = (
    names: { he: string; en: string },
    durationInMonths: number,
    price: number,
    features: string[],
  ) =>
    apiCall<{ id: string }>(
      base,
      'POST',
      '/payment-plans',
      {
        name: names.he,
        nameEn: names.en,
        durationInMonths,
        price,
        currency: 'USD',
        isRecurrent: true,
        description: 'ארבעה מסכים, HD ו־4K',
        descriptionEn: 'Four screens, HD and 4K',
        features,
        status: 'ACTIVE',
      },
      adminToken,
    );
  const plan = await createPackage({ he: 'פרימיום משפחתי', en: 'Family Premium' }, 12, 119.9, ['4K', 'ארבעה מסכים']);
  const monthly = await createPackage({ he: 'נייד חודשי', en: 'Mobile Monthly' }, 1, 9.9, ['HD']);
  // The client buys both packages, so that the subscription screens have one to show; the streaming-service simulator
  // opens each account in the background, and the screens are shown once it is ACTIVE (a PENDING one shows a spinner).
  const buy = async (planId: string, login: string) => {
    const { id } = await apiCall<{ id: string }>(
      base,
      'POST',
      `/subscriptions/balance/payment-plans/${planId}`,
      { login, password: 'Stream-Pass-1' },
      clientToken,
    );
    const activeBy = Date.now() + 60_000;
    for (;;) {
      const { status } = await apiCall<{ status: string }>(base, 'GET', `/subscriptions/${id}`, undefined, clientToken);
      if (status === 'ACTIVE') break;
      assert.ok(Date.now() < activeBy, `the seeded subscription is still ${status} after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return id;
  };
  const subscriptionId = await buy(plan.id, 'dana.levi');
  const purchases = await apiCall<{ content: Array<{ paymentId: number }> }>(
    base,
    'POST',
    '/payments/search',
    { types: ['SUBSCRIPTION_PAYMENT'] },
    clientToken,
  );
  assert.equal(purchases.content.length, 1, "the purchase is the client's one subscription payment");
  // The second one is cancelled: it runs to its end date, and offers to resume it until then.
  const cancelledSubscriptionId = await buy(monthly.id, 'dana.phone');
  await apiCall(base, 'DELETE', `/subscriptions/${cancelledSubscriptionId}`, undefined, clientToken);
  // A promo code (ADR 0088), applied in the buy and renew dialogs and listed in the console.
  await apiCall(
    base,
    'POST',
    '/promo-codes',
    { code: 'SPRING20', discountKind: 'PERCENT', percent: 20, appliesTo: ['PURCHASE', 'RENEWAL'], maxUses: 100 },
    adminToken,
  );
  // A finished broadcast to every client (ADR 0091) and a finished bulk batch (ADR 0090): once done, neither page
  // shows a progress bar, so both settle. Unblocking an active client changes nothing, so no other screen moves.
  const broadcast = await apiCall<{ id: string }>(
    base,
    'POST',
    '/broadcasts',
    {
      subjectHe: 'שעות התמיכה בחג',
      bodyHe: 'התמיכה תענה בין 9:00 ל־13:00 בימי החג.',
      subjectEn: 'Support hours over the holiday',
      bodyEn: 'Support answers from 9:00 to 13:00 over the holiday.',
      filter: {},
    },
    adminToken,
  );
  const batch = await apiCall<{ id: string }>(
    base,
    'POST',
    '/bulk-operations',
    { action: 'UNBLOCK', filter: { keyWord: EMPTY_BALANCE_EMAIL }, reason: 'Cleared after the review' },
    adminToken,
  );
  const doneBy = Date.now() + 60_000;
  for (;;) {
    const sent = await apiCall<{ status: string; recipients: number; sent: number }>(
      base,
      'GET',
      `/broadcasts/${broadcast.id}`,
      undefined,
      adminToken,
    );
    const ran = await apiCall<{ status: string }>(base, 'GET', `/bulk-operations/${batch.id}`, undefined, adminToken);
    // Done and every mail delivered (written to the log: the server has no SMTP), so the counts stay as shown.
    if (sent.status === 'DONE' && sent.sent === sent.recipients && ran.status === 'COMPLETED') break;
    assert.ok(Date.now() < doneBy, `the broadcast is ${sent.status} and the batch ${ran.status} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const log = await apiCall<{ content: Array<{ id: string }> }>(
    base,
    'POST',
    '/audit-logs/search',
    { targetAndParentIds: [clientUuid] },
    adminToken,
  );
  assert.ok(log.content.length > 0, 'the seeded client has activity log entries');
  return {
    clientUuid,
    packageId: plan.id,
    subscriptionId,
    cancelledSubscriptionId,
    paymentId: deposit.paymentId,
    purchasePaymentId: purchases.content[0].paymentId,
    transferPaymentId: transfer.paymentId,
    auditLogId: log.content[0].id,
  };
}

function signedOutScreens(): Screen[] {
  return [
    { app: 'client', name: 'sign-in', path: '/login', ready: '[data-testid="login-email"]' },
    { app: 'client', name: 'sign-up', path: '/sign-up', ready: 'main h1' },
    { app: 'console', name: 'login', path: '/admin/login', ready: '[data-testid="login-email"]' },
  ];
}

function signedInScreens({
  clientUuid,
  packageId,
  subscriptionId,
  cancelledSubscriptionId,
  paymentId,
  purchasePaymentId,
  transferPaymentId,
  auditLogId,
}: Seed): Screen[] {
  const account = encodeURIComponent(`user:${clientUuid}`);
  return [
    { app: 'client', name: 'profile', path: '/my-profile', ready: 'main h1' },
    { app: 'client', name: 'payments', path: '/payments', ready: '[data-testid="payments-row"]' },
    { app: 'client', name: 'payment', path: `/payments/${paymentId}`, ready: '[data-testid="payment-detail"]' },
    {
      app: 'client',
      name: 'payment-purchase',
      path: `/payments/${purchasePaymentId}`,
      ready: '[data-testid="payment-detail-package"]',
    },
    {
      app: 'client',
      name: 'payment-transfer',
      path: `/payments/${transferPaymentId}`,
      ready: '[data-testid="payment-detail-counterparty"]',
    },
    { app: 'client', name: 'deposit', path: '/payments/deposit', ready: '[data-testid="deposit-form"]' },
    { app: 'client', name: 'transfer', path: '/payments/transfer', ready: '[data-testid="transfer-form"]' },
    // The month so far: the seed's payments were booked today (ADR 0096).
    { app: 'client', name: 'statement', path: '/payments/statement', ready: '[data-testid="statement-closing"]' },
    { app: 'client', name: 'redeem', path: '/redeem/ABCD-EFGH-JKMN-PQRS', ready: '[data-testid="redeem-code"]' },
    { app: 'client', name: 'packages', path: '/packages', ready: 'main h1' },
    {
      app: 'client',
      name: 'subscriptions',
      path: '/subscriptions',
      ready: '[data-testid="subscriptions-row-status"][data-value="CANCELLING"]',
    },
    {
      app: 'client',
      name: 'subscription',
      path: `/subscriptions/${subscriptionId}`,
      ready: '[data-testid="subscription-connect"]',
    },
    {
      app: 'client',
      name: 'subscription-renew',
      path: `/subscriptions/${subscriptionId}`,
      ready: '[data-testid="subscription-renew"]:enabled',
      dialog: async (page) => {
        // Opened without scrolling to the button: a full-page screenshot draws the fixed app bar where the page was
        // scrolled to, halfway down the page, and the dialog shows over the top of the page either way.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByTestId('subscription-renew').dispatchEvent('click');
        await page.getByTestId('renew-price').waitFor();
        await page.getByTestId('renew-balance').waitFor();
      },
    },
    {
      app: 'client',
      name: 'subscription-renew-crypto',
      path: `/subscriptions/${subscriptionId}`,
      ready: '[data-testid="subscription-renew"]:enabled',
      dialog: async (page) => {
        // The same dialog paying by crypto (issue 31): the exact deposit asked and the coin.
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByTestId('subscription-renew').dispatchEvent('click');
        await page.getByTestId('renew-pay-crypto').check();
        await page.getByTestId('renew-crypto').waitFor();
        await page.getByTestId('renew-coin').waitFor({ state: 'attached' });
      },
    },
    {
      app: 'client',
      name: 'subscription-renew-promo',
      path: `/subscriptions/${subscriptionId}`,
      ready: '[data-testid="subscription-renew"]:enabled',
      dialog: async (page) => {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByTestId('subscription-renew').dispatchEvent('click');
        await page.getByTestId('renew-promo-input').fill('spring20');
        await page.getByTestId('renew-promo-apply').click();
        await page.getByTestId('renew-promo-result').waitFor();
      },
    },
    {
      app: 'client',
      name: 'buy-promo',
      path: '/packages',
      ready: '[data-testid="plan-buy"]',
      dialog: async (page) => {
        await page.getByTestId('plan-buy').first().click();
        await page.getByTestId('buy-promo-input').fill('spring20');
        await page.getByTestId('buy-promo-apply').click();
        await page.getByTestId('buy-promo-result').waitFor();
        await page.getByTestId('buy-price-code').waitFor();
      },
    },
    {
      app: 'client',
      name: 'subscription-cancelled',
      path: `/subscriptions/${cancelledSubscriptionId}`,
      ready: '[data-testid="subscription-resume"]',
    },
    {
      app: 'client',
      name: 'subscription-resume',
      path: `/subscriptions/${cancelledSubscriptionId}`,
      ready: '[data-testid="subscription-resume"]',
      dialog: async (page) => {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByTestId('subscription-resume').dispatchEvent('click');
        await page.getByTestId('resume-subscription-text').waitFor();
      },
    },
    { app: 'client', name: 'referrals', path: '/referrals', ready: 'main h1' },
    { app: 'client', name: 'help', path: '/help', ready: 'main h1' },
    { app: 'console', name: 'dashboard', path: '/admin/', ready: '[data-testid="dashboard-active-value"]' },
    { app: 'console', name: 'clients', path: '/admin/clients', ready: '[data-testid="clients-card"]' },
    {
      app: 'console',
      name: 'subscriptions',
      path: '/admin/subscriptions',
      ready: '[data-testid="subscriptions-card"]',
    },
    {
      app: 'console',
      name: 'subscription',
      path: `/admin/subscriptions/${subscriptionId}/show`,
      ready: '[data-testid="subscription-user-link"]',
    },
    {
      app: 'console',
      name: 'client-profile',
      path: `/admin/clients/${clientUuid}/show`,
      ready: '[data-testid="client-profile"]',
    },
    {
      app: 'console',
      name: 'client-subscriptions',
      path: `/admin/clients/${clientUuid}/show/subscriptions`,
      ready: '[data-testid="client-subscriptions-row"], [data-testid="subscriptions-card"]',
    },
    {
      app: 'console',
      name: 'client-payments',
      path: `/admin/clients/${clientUuid}/show/payments`,
      ready: '[data-testid="payments-card"]',
    },
    {
      app: 'console',
      name: 'client-statement',
      path: `/admin/clients/${clientUuid}/show/statement`,
      ready: '[data-testid="statement-closing"]',
    },
    {
      app: 'console',
      name: 'client-notes',
      path: `/admin/clients/${clientUuid}/show/notes`,
      ready: '[data-testid="note-item"]',
    },
    { app: 'console', name: 'payments', path: '/admin/payments', ready: '[data-testid="payments-card"]' },
    { app: 'console', name: 'vouchers', path: '/admin/vouchers', ready: '[data-testid="vouchers-table"]' },
    {
      app: 'console',
      name: 'payment',
      path: `/admin/payments/${paymentId}/show`,
      ready: '[data-testid="payment-detail"]',
    },
    { app: 'console', name: 'activity-log', path: '/admin/activity-log', ready: '[data-testid="activity-log-card"]' },
    {
      app: 'console',
      name: 'activity-log-entry',
      path: `/admin/activity-log/${auditLogId}/show`,
      ready: '[data-testid="activity-log-changes"]',
    },
    {
      app: 'console',
      name: 'account-history',
      path: `/admin/ledger/history?account=${account}`,
      ready: '[data-testid="account-history-row"]',
    },
    { app: 'console', name: 'packages', path: '/admin/packages', ready: '[data-testid="packages-card"]' },
    {
      app: 'console',
      name: 'promo-codes',
      path: '/admin/promo-codes',
      ready: '[data-testid="promo-code-row"], [data-testid="promo-code-card"]',
    },
    {
      app: 'console',
      name: 'package',
      path: `/admin/packages/${packageId}/show`,
      ready: '[data-testid="package-features"]',
    },
    {
      app: 'console',
      name: 'broadcasts',
      path: '/admin/broadcasts',
      ready: '[data-testid="broadcast-status"]',
    },
    {
      app: 'console',
      name: 'broadcast-recipients',
      path: '/admin/broadcasts',
      ready: '[data-testid="broadcast-open"]',
      dialog: async (page) => {
        await page.getByTestId('broadcast-open').first().click();
        await page.getByTestId('broadcast-recipients').waitFor();
      },
    },
    { app: 'console', name: 'bulk-operations', path: '/admin/bulk-operations', ready: '[data-testid="bulk-past"]' },
    { app: 'console', name: 'two-factor', path: '/admin/two-factor', ready: '[data-testid="two-factor-page"]' },
    { app: 'console', name: 'staff', path: '/admin/staff', ready: '[data-testid="staff-card"]' },
  ];
}

/**
 * The drawers a phone has and a desktop does not: navigation and list filters, in both directions. The console's
 * navigation comes last: react-admin remembers an open sidebar, which would cover the screens after it.
 */
function phoneDrawerScreens(): Screen[] {
  return [
    {
      app: 'client',
      name: 'navigation',
      path: '/payments',
      ready: '[data-testid="payments-row"]',
      open: async (page) => {
        await page.getByTestId('nav-open').click();
        await page.locator('[data-testid="sidebar"]').filter({ visible: true }).waitFor();
      },
    },
    {
      app: 'client',
      name: 'payments-filters',
      path: '/payments',
      ready: '[data-testid="payments-row"]',
      open: async (page) => {
        await page.getByTestId('payments-filters-toggle').click();
        await page.getByTestId('payments-filter-keyword').waitFor();
      },
    },
    {
      app: 'console',
      name: 'payments-filters',
      path: '/admin/payments',
      ready: '[data-testid="payments-card"]',
      open: async (page) => {
        await page.getByTestId('filters-open').click();
        await page.getByTestId('filters-drawer').waitFor();
      },
    },
    {
      app: 'console',
      name: 'navigation',
      path: '/admin/payments',
      ready: '[data-testid="payments-card"]',
      open: async (page) => {
        await page.locator('.RaAppBar-menuButton').click();
        await page.getByTestId('menu-clients').waitFor();
      },
    },
  ];
}

async function newContext(lang: Lang): Promise<BrowserContext> {
  // The browser's own language too, as a person reading the app in that language would have it.
  const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: lang === 'he' ? 'he-IL' : 'en-GB' });
  // Both apps read the persisted language store before they render.
  await context.addInitScript((value) => {
    localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
  }, lang);
  return context;
}

async function signInToClientApp(page: Page, email = CLIENT_EMAIL): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('balance').waitFor();
}

async function signInToConsole(page: Page): Promise<void> {
  // At desktop width the sidebar shows, and its first entry says the console has opened.
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(`${server.baseUrl}/admin/login`);
  await page.getByTestId('login-email').fill(ADMIN_EMAIL);
  await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu-clients').waitFor();
}

/**
 * The language toggle is fixed to the top corner of every screen, above the app bar: answers what in the app bar it
 * covers (nothing, when the bar leaves it room).
 */
async function underTheLanguageToggle(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const toggle = document.querySelector('[data-testid="lang-toggle"]');
    if (!toggle) return [];
    const corner = toggle.getBoundingClientRect();
    const covered: string[] = [];
    for (const element of document.querySelectorAll('header button, header a, header [data-testid]')) {
      if (toggle.contains(element) || element.contains(toggle)) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const across = Math.min(corner.right, box.right) - Math.max(corner.left, box.left);
      const down = Math.min(corner.bottom, box.bottom) - Math.max(corner.top, box.top);
      if (across > 0.5 && down > 0.5)
        covered.push(element.getAttribute('data-testid') ?? element.tagName.toLowerCase());
    }
    return covered;
  });
}

/**
 * The labels of form fields that their field cuts short (Material UI ends them with an ellipsis): a label resting
 * inside an empty field gets only the field's width, which a longer translation can outgrow.
 */
async function clippedFieldLabels(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('label.MuiInputLabel-root, label.MuiFormLabel-root')]
      .filter((label) => label.offsetParent !== null && label.scrollWidth > label.clientWidth + 1)
      .map((label) => JSON.stringify(label.textContent ?? '')),
  );
}

/** Shows one screen in every variant; answers what went wrong, so that one run reports every screen at once. */
async function visitScreen(page: Page, screen: Screen, lang: Lang): Promise<string[]> {
  const problems: string[] = [];
  await page.setViewportSize(VIEWPORTS.phone);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${server.baseUrl}${screen.path}`);
  await page.locator(screen.ready).first().waitFor();
  await (screen.open ?? screen.dialog)?.(page);
  for (const variant of screen.open ? VARIANTS.filter(({ width }) => width === 'phone') : VARIANTS) {
    await page.setViewportSize(VIEWPORTS[variant.width]);
    await showColorScheme(page, variant.scheme);
    await settle(page);
    const label = `${screen.app}-${screen.name}-${lang}-${variant.scheme}-${variant.width}`;
    const overflow = await horizontalOverflow(page);
    if (overflow) {
      problems.push(
        `${label}: the page is ${overflow.scrollWidth} px wide in a ${overflow.innerWidth} px viewport; ` +
          `reaching out: ${overflow.offenders.join(', ')}`,
      );
    }
    const clipped = await clippedFieldLabels(page);
    if (clipped.length > 0) problems.push(`${label}: field labels cut short: ${clipped.join(', ')}`);
    const covered = await underTheLanguageToggle(page);
    if (covered.length > 0) problems.push(`${label}: the language toggle covers ${covered.join(', ')}`);
    // A drawer exists only on a phone, so there axe-core checks the phone in each language's palette.
    const axeVariant = screen.open ? { width: 'phone', scheme: AXE_VARIANT[lang].scheme } : AXE_VARIANT[lang];
    if (axeVariant.width === variant.width && axeVariant.scheme === variant.scheme) {
      const findings: AxeFinding[] = await seriousAccessibilityFindings(page);
      if (findings.length > 0) problems.push(describeFindings(label, findings));
    }
    await screenshot(page, label);
  }
  return problems;
}

async function visitEveryScreen(lang: Lang): Promise<void> {
  const problems: string[] = [];
  const context = await newContext(lang);
  const page = await context.newPage();
  for (const screen of signedOutScreens()) problems.push(...(await visitScreen(page, screen, lang)));
  await signInToClientApp(page);
  await signInToConsole(page);
  for (const screen of [...signedInScreens(seed), ...phoneDrawerScreens()]) {
    problems.push(...(await visitScreen(page, screen, lang)));
  }
  await context.close();
  assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
}

describe('every screen, both languages, light and dark, desktop and phone', { timeout: 600_000 }, () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD, ...STREAMING });
    browser = await launchBrowser();
    seed = await seedData();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves /robots.txt as a text file, not the app page', async () => {
    for (const [path, rule] of [
      ['/robots.txt', 'Disallow: /admin/'],
      ['/admin/robots.txt', 'Disallow: /'],
    ]) {
      const response = await fetch(`${server.baseUrl}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/, path);
      const body = await response.text();
      assert.ok(body.includes('User-agent: *') && body.includes(rule), `${path}:\n${body}`);
    }
  });

  it('in Hebrew', async () => {
    await visitEveryScreen('he');
  });

  it('in English', async () => {
    await visitEveryScreen('en');
  });

  it('the transfer form of a client with nothing to send, in both languages', async () => {
    const problems: string[] = [];
    for (const lang of ['he', 'en'] as const) {
      const context = await newContext(lang);
      const page = await context.newPage();
      await signInToClientApp(page, EMPTY_BALANCE_EMAIL);
      const screen: Screen = {
        app: 'client',
        name: 'transfer-nothing-to-send',
        path: '/payments/transfer',
        ready: '[data-testid="transfer-unavailable-reason"]',
      };
      problems.push(...(await visitScreen(page, screen, lang)));
      // The reason is on screen, and the button it explains cannot be pressed.
      const reason = (await page.getByTestId('transfer-unavailable-reason').textContent()) ?? '';
      assert.match(reason, lang === 'he' ? /אין מה להעביר/ : /Nothing to transfer/);
      assert.match(reason, /0\.00/);
      const proceed = page.getByTestId('transfer-continue');
      assert.equal(await proceed.isDisabled(), true, 'Continue is disabled at a zero balance');
      assert.equal(await proceed.getAttribute('aria-describedby'), 'transfer-unavailable-reason');
      // The sidebar (shown at desktop width, where the visit ends) links the configured site, not a made-up one.
      const site = page.locator('[data-testid="nav-service-site"]').filter({ visible: true });
      assert.equal(await site.getAttribute('href'), STREAMING.STREAMING_SITE_URL);
      await context.close();
    }
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
