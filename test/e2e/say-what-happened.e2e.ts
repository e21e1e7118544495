import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeFindings, seriousAccessibilityFindings } from '../support/accessibility.ts';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { horizontalOverflow, layoutShift, settle, showColorScheme } from '../support/layout.ts';

/**
 * Issue 30, items 7 to 9, where the browser matters (docs/adr/0079-say-what-happened-and-keep-what-was-typed.md): the
 * packages and subscriptions pages do not jump when the trial offer arrives (CLS measured by a PerformanceObserver),
 * a sign-in returns to the page asked for but never to another site, a client whose password staff set is told why on
 * the sign-in page, and the screens changed are photographed in both languages, both themes and both widths.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const PASSWORD = 'Client-Pass-1!';

type Lang = 'he' | 'en';
const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;

let server: KupaServer;
let browser: Browser;
let adminToken: string;

async function newContext(lang: Lang, viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<BrowserContext> {
  // An English browser, whatever the page's language: the date filter must follow the page, not the browser.
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US' });
  await context.addInitScript((value) => {
    localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
  }, lang);
  return context;
}

async function newClient(email: string, role: 'CLIENT' | 'AMBASSADOR' = 'CLIENT'): Promise<string> {
  const { userUuid } = await apiCall<{ userUuid: string }>(
    server.baseUrl,
    'POST',
    '/users',
    { email, firstName: 'Noa', lastName: 'Journey', role, password: PASSWORD },
    adminToken,
  );
  return userUuid;
}

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function checkScreen(page: Page, name: string): Promise<void> {
  await settle(page);
  const overflow = await horizontalOverflow(page);
  assert.equal(overflow, null, `${name} scrolls sideways: ${JSON.stringify(overflow)}`);
  const findings = await seriousAccessibilityFindings(page);
  assert.equal(findings.length, 0, describeFindings(name, findings));
}

describe('say what happened, keep what was typed, keep the layout still', () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
    adminToken = await signInToken(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const [name, price] of [
      ['Basic', 29.9],
      ['Family', 119.9],
    ] as const)
      await apiCall(
        server.baseUrl,
        'POST',
        '/payment-plans',
        {
          name,
          durationInMonths: 1,
          price,
          currency: 'USD',
          isRecurrent: true,
          description: 'HD',
          features: ['HD'],
          status: 'ACTIVE',
        },
        adminToken,
      );
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  // Both pages put the trial offer above their content; each is loaded afresh, as Lighthouse measures it, at both widths.
  for (const [path, content] of [
    ['/packages', 'plans'],
    ['/subscriptions', 'subscriptions-to-packages'],
  ] as const)
    it(`opens ${path} for a new client, trial offer included, with no layout shift`, async () => {
      const email = `cls${path.replace('/', '.')}@example.com`;
      await newClient(email);
      for (const viewport of ['phone', 'desktop'] as const) {
        const context = await newContext('he', viewport);
        const page = await context.newPage();
        await page.goto(`${server.baseUrl}/login`);
        await signIn(page, email);
        await page.getByTestId('balance').waitFor();
        // The packages come a second after the trial question is answered, as on a slow server: the offer must wait
        // for them rather than push their skeleton down (it did, by 0.54 on a phone).
        if (path === '/packages')
          await page.route('**/api/payment-plans/search', async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 1_000));
            await route.continue();
          });
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByTestId('trial-offer').waitFor();
        await page.getByTestId(content).first().waitFor();
        const shift = await layoutShift(page);
        assert.ok(shift <= 0.1, `${path} shifted by ${shift} at ${viewport} width`);
        await checkScreen(page, `${path} with the trial offer at ${viewport} width`);
        await screenshot(page, `ux-he-${viewport}-light-trial-offer${path.replace('/', '-')}`);
        await context.close();
      }
    });

  it('returns to the page asked for after signing in, and never to another site', async () => {
    const email = 'return@example.com';
    await newClient(email);
    const context = await newContext('en');
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/payments?statuses=%5B%22SUCCESS%22%5D`);
    await page.getByTestId('login-form').waitFor();
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname === '/payments' && url.search.includes('statuses'));

    for (const hostile of ['//evil.com', 'https://evil.com']) {
      await page.goto(`${server.baseUrl}/logout`);
      await page.getByTestId('login-form').waitFor();
      await page.goto(`${server.baseUrl}/login?redirect=${encodeURIComponent(hostile)}`);
      await signIn(page, email);
      await page.waitForURL((url) => url.pathname === '/subscriptions');
      assert.equal(new URL(page.url()).host, new URL(server.baseUrl).host);
    }

    // A staff console address leads home; an unknown one is "not found" inside the app's frame.
    await page.goto(`${server.baseUrl}/clients`);
    await page.waitForURL((url) => url.pathname === '/subscriptions');
    await page.goto(`${server.baseUrl}/no-such-page`);
    await page.getByTestId('not-found').waitFor();
    await page.getByTestId('sidebar').first().waitFor();
    await screenshot(page, 'ux-en-not-found-in-shell');
    await context.close();
  });

  it('tells a client whose password staff set why they were signed out', async () => {
    const email = 'staff-set@example.com';
    const userUuid = await newClient(email);
    for (const lang of ['he', 'en'] as const) {
      const context = await newContext(lang);
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/my-profile`);
      await signIn(page, email, lang === 'he' ? PASSWORD : 'Staff-Set-2026!');
      await page.getByTestId('profile-id').waitFor();

      await apiCall(
        server.baseUrl,
        'PUT',
        `/password/users/${userUuid}`,
        { password: lang === 'he' ? 'Staff-Set-2026!' : 'Staff-Set-2027!' },
        adminToken,
      );
      await page.getByTestId('nav-payments').first().click();
      const notice = page.getByTestId('session-ended-notice');
      await notice.waitFor();
      assert.match((await notice.textContent()) ?? '', lang === 'he' ? /צוות התמיכה/ : /support team/);
      await screenshot(page, `ux-${lang}-signed-out-by-staff`);
      await context.close();
    }
  });

  // ADR 0092: staff look at a client's portal in a tab of its own, read only; the client's own session in the same
  // browser stays as it was, and the client's activity log records the view.
  it("lets staff view a client's portal read only, beside the client's own session, and records it", async () => {
    const email = 'viewed@example.com';
    const userUuid = await newClient(email);
    await apiCall(
      server.baseUrl,
      'POST',
      '/payments',
      { userUuid, amount: 75, action: 'DEPOSIT', comment: 'Float' },
      adminToken,
    );
    // What the console's button asks for.
    const { accessToken } = await apiCall<{ accessToken: string }>(
      server.baseUrl,
      'POST',
      `/users/${userUuid}/view-as`,
      undefined,
      adminToken,
    );
    const context = await newContext('en');
    const own = await context.newPage();
    await own.goto(`${server.baseUrl}/login`);
    await signIn(own, email);
    await own.getByTestId('balance').waitFor();
    const ownSession = await own.evaluate(() => localStorage.getItem('user'));

    const view = await context.newPage();
    await view.goto(`${server.baseUrl}/view-as#${accessToken}`);
    await view.getByTestId('view-as-banner').waitFor();
    assert.equal(new URL(view.url()).hash, '', 'the token left the address bar');
    // The balance shows "…" until the client's figures arrive: wait for them, then read them.
    await view.getByTestId('balance').filter({ hasText: /\d/ }).waitFor();
    assert.match((await view.getByTestId('balance').textContent()) ?? '', /75/);
    await view.goto(`${server.baseUrl}/packages`);
    await view.getByTestId('view-as-banner').waitFor();
    assert.equal(await view.getByTestId('plan-buy').first().isDisabled(), true, 'buying is disabled in a view');
    await checkScreen(view, 'packages in a view');
    assert.equal(
      await view.evaluate(() => localStorage.getItem('user')),
      ownSession,
      "the client's session is untouched",
    );
    await view.getByTestId('view-as-end').click();
    await own.reload();
    await own.getByTestId('balance').waitFor();

    const log = await apiCall<{ content: { eventType: string; createdBy: { name: string } }[] }>(
      server.baseUrl,
      'POST',
      '/audit-logs/search',
      { targetAndParentIds: [userUuid], page: 0, size: 50 },
      adminToken,
    );
    const views = log.content.filter((entry) => entry.eventType === 'UserViewedByStaff');
    assert.ok(views.length >= 2, `the opening and the view's requests are in the log (${views.length})`);
    await context.close();
  });

  it('shows the changed screens in both languages, themes and widths', async () => {
    const email = 'ambassador@example.com';
    const userUuid = await newClient(email, 'AMBASSADOR');
    await apiCall(
      server.baseUrl,
      'POST',
      '/payments',
      { userUuid, amount: 1234.5, action: 'DEPOSIT', comment: 'Float' },
      adminToken,
    );
    for (const lang of ['he', 'en'] as const)
      for (const viewport of ['phone', 'desktop'] as const)
        for (const scheme of ['light', 'dark'] as const) {
          const context = await newContext(lang, viewport);
          const page = await context.newPage();
          await page.goto(`${server.baseUrl}/login`);
          await signIn(page, email);
          await page.getByTestId('balance').waitFor();
          await showColorScheme(page, scheme);
          const tag = `ux-${lang}-${viewport}-${scheme}`;

          await page.goto(`${server.baseUrl}/payments/deposit`);
          await page.getByTestId('deposit-amount').fill('250');
          await page.getByTestId('deposit-bonus-preview').waitFor();
          await page.getByTestId('deposit-method-crypto').check();
          assert.equal(await page.getByTestId('crypto-amount').inputValue(), '250');
          await checkScreen(page, `${tag} deposit`);
          await screenshot(page, `${tag}-deposit`);

          await page.goto(`${server.baseUrl}/payments`);
          await page.getByTestId('payments-row').first().waitFor();
          // The page has finished loading, so a click on a filter is not lost to a re-render (as offers.e2e.ts waits).
          await settle(page);
          if (viewport === 'phone')
            await page
              .getByTestId('payments-filters-toggle')
              .click()
              .catch(() => undefined);
          const from = page.getByTestId('payments-filter-from');
          if (await from.isVisible()) {
            await from.click();
            await page.getByTestId('payments-filter-from-calendar').waitFor();
            const title = (await page.getByTestId('payments-filter-from-calendar').locator('h2').textContent()) ?? '';
            assert.match(title, lang === 'he' ? /[\u0590-\u05FF]/ : /[A-Z][a-z]+ \d{4}/);
            await screenshot(page, `${tag}-date-filter`);
            await page.keyboard.press('Escape');
          }
          await checkScreen(page, `${tag} payments`);
          await screenshot(page, `${tag}-payments`);

          await page.goto(`${server.baseUrl}/my-profile`);
          await page.getByTestId('profile-oldPassword').fill('Wrong-Pass-1!');
          await page.getByTestId('profile-password').fill('Newer-Pass-2!');
          await page.getByTestId('profile-confirmPassword').fill('Newer-Pass-2!');
          await page.getByTestId('profile-password-submit').click();
          await page.locator('[data-testid="profile-oldPassword"][aria-invalid="true"]').waitFor();
          await checkScreen(page, `${tag} profile`);
          await screenshot(page, `${tag}-wrong-password`);
          await context.close();
        }
  });
});
