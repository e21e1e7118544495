import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { horizontalOverflow, settle, showColorScheme } from '../support/layout.ts';

/**
 * Money in (issue 10), in Hebrew: a client deposits 50 by crypto at the sandbox cashier, pays on its invoice page, and
 * back in the app sees the balance and the notice that the deposit settled; then, on a package that costs more than
 * the balance, pays by crypto deposit-and-buy, pays that invoice too, and finds the subscription. The new screens are
 * photographed in Hebrew and English (test/artifacts/money-*.png) and checked for sideways scrolling; with SHOTS_DIR
 * set, also dark and at phone width, copied there.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const CLIENT_EMAIL = 'payer@example.com';
const PASSWORD = 'Client-Pass-1!';
const PLAN_NAME = 'חבילת קריפטו';
const PLAN_PRICE = 60;
const SHOTS_DIR = process.env.SHOTS_DIR;

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
} as const;
const VARIANTS = [
  { width: 'desktop', scheme: 'light' },
  { width: 'phone', scheme: 'light' },
  { width: 'desktop', scheme: 'dark' },
  { width: 'phone', scheme: 'dark' },
] as const;

let server: KupaServer;
let browser: Browser;
const screenProblems: string[] = [];

/** Every variant when SHOTS_DIR asks for the pictures; otherwise the desktop in light, to keep the journey quick. */
async function photograph(page: Page, name: string): Promise<void> {
  for (const variant of SHOTS_DIR ? VARIANTS : VARIANTS.slice(0, 1)) {
    await page.setViewportSize(VIEWPORTS[variant.width]);
    await showColorScheme(page, variant.scheme);
    await settle(page);
    const lang = await page.evaluate(() => document.documentElement.lang);
    const label = `money-${lang}-${name}-${variant.scheme}-${variant.width}`;
    const overflow = await horizontalOverflow(page);
    if (overflow)
      screenProblems.push(
        `${label}: ${overflow.scrollWidth} px wide in ${overflow.innerWidth} px: ${overflow.offenders}`,
      );
    await screenshot(page, label);
    if (SHOTS_DIR) {
      mkdirSync(SHOTS_DIR, { recursive: true });
      await page.screenshot({ path: join(SHOTS_DIR, `${label}.png`), fullPage: true });
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await showColorScheme(page, 'light');
}

/** Opens the invoice link (a new tab, as for a real client), presses Pay there, and closes the tab. */
async function payInvoice(context: BrowserContext, client: Page): Promise<void> {
  const [invoice] = await Promise.all([
    context.waitForEvent('page'),
    client.getByTestId('crypto-invoice-link').click(),
  ]);
  await invoice.waitForLoadState();
  await invoice.locator('button[data-action="pay"]').click();
  await invoice.waitForLoadState();
  await invoice.locator('button[data-action="pay"][disabled]').waitFor();
  await invoice.close();
}

async function balanceText(page: Page): Promise<string> {
  return ((await page.getByTestId('balance').textContent()) ?? '').replace(
    /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    '',
  );
}

describe('money-in journey', { timeout: 300_000 }, () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a Hebrew client deposits 50 by crypto, sees it arrive, then buys a dearer package by deposit-and-buy', async () => {
    const base = server.baseUrl;
    const adminToken = await signInToken(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await apiCall(
      base,
      'POST',
      '/users',
      { email: CLIENT_EMAIL, firstName: 'נועה', lastName: 'כהן', role: 'CLIENT', password: PASSWORD },
      adminToken,
    );
    await apiCall(
      base,
      'POST',
      '/payment-plans',
      {
        name: PLAN_NAME,
        durationInMonths: 1,
        price: PLAN_PRICE,
        currency: 'USD',
        isRecurrent: false,
        description: 'נקנית בהפקדה',
        features: ['HD'],
        status: 'ACTIVE',
      },
      adminToken,
    );

    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'he-IL' });
    const client = await context.newPage();
    await client.goto(`${base}/login`);
    await client.getByTestId('login-email').fill(CLIENT_EMAIL);
    await client.getByTestId('login-password').fill(PASSWORD);
    await client.getByTestId('login-submit').click();
    await client.getByTestId('balance').waitFor();
    assert.equal(await client.evaluate(() => document.documentElement.dir), 'rtl');

    // A deposit of 50 by crypto.
    await client.goto(`${base}/payments/deposit`);
    await client.getByTestId('deposit-method-crypto').check();
    await client.getByTestId('crypto-amount').fill('50');
    const form = await client.getByTestId('crypto-deposit-form').textContent();
    assert.match(form ?? '', /מ-.*עד/, `the form shows the limits: ${form}`);
    await photograph(client, 'crypto-form');
    await client.getByTestId('crypto-create').click();
    await client.getByTestId('crypto-invoice-link').waitFor();
    await photograph(client, 'crypto-pending');

    await payInvoice(context, client);
    const settled = client.getByTestId('crypto-settled');
    await settled.waitFor({ timeout: 30_000 });
    const notice = client.getByTestId('toast').filter({ hasText: 'ההפקדה התקבלה' });
    await notice.waitFor({ timeout: 30_000 });
    assert.match((await notice.textContent()) ?? '', /50/);
    await client.waitForFunction(() =>
      /50\.00/.test(document.querySelector('[data-testid="balance"]')?.textContent ?? ''),
    );
    assert.match(await balanceText(client), /50\.00/);
    await photograph(client, 'crypto-settled');

    // The package costs 60: the balance is short, the dialog offers deposit-and-buy.
    await client.goto(`${base}/packages`);
    const card = client.getByTestId('plan-card').filter({ hasText: PLAN_NAME });
    await card.getByTestId('plan-buy').click();
    await client.getByTestId('buy-dialog').waitFor();
    await client.getByTestId('buy-crypto').waitFor();
    assert.ok(await client.getByTestId('buy-pay-crypto').isChecked(), 'a short balance offers the crypto deposit');
    await client.getByTestId('buy-login').fill('noa.crypto');
    await client.getByTestId('buy-password').fill('Stream-Pass-1');
    await client.getByTestId('buy-confirm-password').fill('Stream-Pass-1');
    await photograph(client, 'buy-crypto-dialog');
    await client.getByTestId('buy-submit').click();

    await client.waitForURL(/\/payments\/deposit\?paymentId=\d+/);
    const paymentId = new URL(client.url()).searchParams.get('paymentId');
    await client.getByTestId('crypto-purchase').waitFor();
    assert.match((await client.getByTestId('crypto-purchase').textContent()) ?? '', new RegExp(PLAN_NAME));
    await photograph(client, 'buy-pending');

    await payInvoice(context, client);
    const bought = client.getByTestId('toast').filter({ hasText: `החבילה \u2068${PLAN_NAME}\u2069 נקנתה` });
    await bought.waitFor({ timeout: 30_000 });
    await client.getByTestId('crypto-subscription').waitFor({ timeout: 30_000 });
    await photograph(client, 'buy-settled');
    // 50 + 60 arrived, 60 paid for the package.
    await client.waitForFunction(() =>
      /50\.00/.test(document.querySelector('[data-testid="balance"]')?.textContent ?? ''),
    );

    await client.getByTestId('crypto-subscription').click();
    await client.waitForURL(/\/subscriptions\/[0-9a-f-]{36}$/);
    await client.getByTestId('subscription-detail').waitFor();
    assert.match((await client.getByRole('heading', { level: 1 }).textContent()) ?? '', new RegExp(PLAN_NAME));
    // Renewing it costs 60 again, more than the balance: the dialog offers the crypto deposit-and-renew.
    await client.getByTestId('subscription-renew').click({ timeout: 30_000 });
    await client.getByTestId('renew-crypto').waitFor();
    await photograph(client, 'renew-crypto-dialog');
    await client.getByTestId('renew-cancel').click();

    // The result screen a provider returns to reads the payment: what it was and what it bought.
    await client.goto(`${base}/paymentSuccess?paymentId=${paymentId}`);
    await client.locator('[data-testid="payment-result"][data-outcome="success"]').waitFor();
    await client.getByTestId('payment-result-subscription').waitFor();
    await photograph(client, 'result');

    // The same screens in English.
    await client.getByTestId('lang-toggle').click();
    await client.waitForFunction(() => document.documentElement.dir === 'ltr');
    await client.locator('[data-testid="payment-result"][data-outcome="success"]').waitFor();
    await photograph(client, 'result');
    await client.goto(`${base}/payments/deposit?paymentId=${paymentId}`);
    await client.getByTestId('crypto-subscription').waitFor();
    await photograph(client, 'buy-settled');
    await client.getByTestId('crypto-another').click();
    await client.getByTestId('crypto-deposit-form').waitFor();
    await photograph(client, 'crypto-form');
    await client.goto(`${base}/packages`);
    await client.getByTestId('plan-card').filter({ hasText: PLAN_NAME }).getByTestId('plan-buy').click();
    await client.getByTestId('buy-dialog').waitFor();
    await photograph(client, 'buy-dialog');

    await context.close();
    assert.deepEqual(screenProblems, [], `\n${screenProblems.join('\n')}`);
  });
});
