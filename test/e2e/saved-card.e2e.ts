import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { horizontalOverflow, settle, showColorScheme } from '../support/layout.ts';
import { type SandboxTestCard, saveSandboxCard } from '../support/sandbox-card.ts';

/**
 * A saved card through the sandbox card (docs/adr/0087-sandbox-saved-cards.md), in Hebrew: a client opens Save a card
 * on My profile, lands on the sandbox's test setup page (no card field, test cards to choose), saves the card that is
 * declined for insufficient funds, comes back to My profile and sees it; replaces it with the card that pays, and
 * removes it. The setup page and the card section are photographed in Hebrew and English (test/artifacts/saved-card-*);
 * with SHOTS_DIR set, also dark and at phone width, copied there.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const CLIENT_EMAIL = 'saver@example.com';
const PASSWORD = 'Client-Pass-1!';
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

async function photograph(page: Page, name: string): Promise<void> {
  // The sandbox's own pages paint no background in light mode, so the apps' wait for their palette does not apply.
  const sandboxPage = page.url().includes('/api/sandbox/');
  const scheme = (wanted: 'light' | 'dark') =>
    sandboxPage ? page.emulateMedia({ colorScheme: wanted }) : showColorScheme(page, wanted);
  for (const variant of SHOTS_DIR ? VARIANTS : VARIANTS.slice(0, 1)) {
    await page.setViewportSize(VIEWPORTS[variant.width]);
    await scheme(variant.scheme);
    await settle(page);
    const lang = await page.evaluate(() => document.documentElement.lang);
    const label = `saved-card-${lang}-${name}-${variant.scheme}-${variant.width}`;
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
  await scheme('light');
}

/** Save a card through the sandbox's setup page, photographing that page in Hebrew and English when asked. */
async function saveCard(page: Page, base: string, card: SandboxTestCard, photographAs?: string): Promise<void> {
  await saveSandboxCard(page, base, card, async (setupPage) => {
    if (!photographAs) return;
    await photograph(setupPage, photographAs);
    await setupPage.getByRole('link', { name: 'English' }).click();
    await setupPage.locator('[data-action="save"]').waitFor();
    await photograph(setupPage, photographAs);
  });
}

describe('saved card journey (sandbox card)', { timeout: 300_000 }, () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a client saves a test card on the sandbox page, sees it, replaces it and removes it', async () => {
    const base = server.baseUrl;
    const adminToken = await signInToken(base, ADMIN_EMAIL, ADMIN_PASSWORD);
    await apiCall(
      base,
      'POST',
      '/users',
      { email: CLIENT_EMAIL, firstName: 'דנה', lastName: 'לוי', role: 'CLIENT', password: PASSWORD },
      adminToken,
    );

    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'he-IL' });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByTestId('login-email').fill(CLIENT_EMAIL);
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('balance').waitFor();

    await page.goto(`${base}/my-profile`);
    await page.getByTestId('saved-card-none').waitFor();
    assert.match((await page.getByTestId('saved-card-hint').textContent()) ?? '', /כרטיסי ניסוי/);

    await saveCard(page, base, 'insufficient-funds', 'setup-page');
    const number = page.getByTestId('saved-card-number');
    await number.waitFor();
    assert.equal(await number.textContent(), 'VISA •••• 9995');
    await photograph(page, 'profile');

    // Replace it with the card that pays: one card, the newer one.
    await saveCard(page, base, 'pays');
    await page.getByTestId('saved-card-number').filter({ hasText: '4242' }).waitFor();
    const token = await signInToken(base, CLIENT_EMAIL, PASSWORD);
    const view = (await apiCall(base, 'GET', '/users/me/saved-card', undefined, token)) as {
      provider: string;
      card: { last4: string } | null;
    };
    assert.deepEqual([view.provider, view.card?.last4], ['SANDBOX', '4242']);

    // The same section in English.
    await page.getByTestId('lang-toggle').click();
    await page.getByTestId('saved-card-hint').filter({ hasText: 'Test cards' }).waitFor();
    await photograph(page, 'profile');

    // Remove it, after the confirmation.
    await page.getByTestId('saved-card-remove').click();
    await page.getByTestId('saved-card-remove-confirm').click();
    await page.getByTestId('saved-card-none').waitFor();

    assert.deepEqual(screenProblems, [], 'no screen scrolls sideways');
    await context.close();
  });
});
