import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { onlyRowFound } from '../support/console-lists.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';

/**
 * The staff two-factor journey (issue 7): a manager enrols an authenticator in the console, signs out, signs in with
 * a code and then with a recovery code; an admin finds another manager in the staff list, resets their two-factor
 * sign-in, and that manager signs in with the password alone. Codes come from otplib,
 * computed from the secret the console shows as text, as a phone's authenticator app would.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const PASSWORD = 'Manager-Pass-1!';
const PERIOD_SECONDS = 30;
/** The steps either side of its own that the server accepts (proto's `LIMITS.totpToleranceSteps`). */
const TOLERANCE_STEPS = 1;

let server: KupaServer;
let browser: Browser;

const LABELS = {
  he: { userMenu: 'Noa Journey: תפריט החשבון', logout: 'יציאה', reset: 'איפוס כניסה דו-שלבית', on: 'מופעלת' },
  en: { userMenu: 'Noa Journey: account menu', logout: 'Logout', reset: 'Reset two-factor sign-in', on: 'On' },
} as const;

async function newPage(lang: 'he' | 'en'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((value) => {
    localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
  }, lang);
  return context.newPage();
}

function stepOf(date: Date): number {
  return Math.floor(date.getTime() / 1000 / PERIOD_SECONDS);
}

/**
 * A code of a time-step after `usedStep`: the server refuses a second use of a step, and accepts a code of the step
 * on either side of its own (`LIMITS.totpToleranceSteps`), as from an authenticator whose clock runs a little ahead.
 * So a journey that signs in twice within thirty seconds types the next step's code at once rather than sleeping up
 * to thirty seconds for it; a step beyond the tolerance is still waited for.
 */
async function freshCode(secret: string, usedStep: number | null): Promise<{ code: string; step: number }> {
  const step = Math.max(stepOf(new Date()), usedStep === null ? 0 : usedStep + 1);
  while (step - stepOf(new Date()) > TOLERANCE_STEPS) await new Promise((resolve) => setTimeout(resolve, 500));
  return { code: generateSync({ secret, epoch: step * PERIOD_SECONDS }), step };
}

async function createManager(adminToken: string, email: string): Promise<string> {
  const user = await apiCall<{ userUuid: string }>(
    server.baseUrl,
    'POST',
    '/users',
    { email, firstName: 'Noa', lastName: 'Journey', role: 'MANAGER', password: PASSWORD },
    adminToken,
  );
  return user.userUuid;
}

async function fillCredentials(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

async function signOut(page: Page, lang: 'he' | 'en'): Promise<void> {
  await page.getByRole('button', { name: LABELS[lang].userMenu }).click();
  await page.getByRole('menuitem', { name: LABELS[lang].logout }).click();
  await page.getByTestId('login-email').waitFor();
}

async function twoFactorJourney(lang: 'he' | 'en'): Promise<void> {
  const adminToken = await signInToken(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const managerEmail = `manager.${lang}@example.com`;
  const otherEmail = `other.${lang}@example.com`;
  await createManager(adminToken, managerEmail);
  const otherUuid = await createManager(adminToken, otherEmail);

  // The other manager enrols through the API, so that the admin has something to reset later.
  const otherToken = await signInToken(server.baseUrl, otherEmail, PASSWORD);
  const otherEnrolment = await apiCall<{ secret: string }>(
    server.baseUrl,
    'POST',
    '/auth/two-factor/enrolment',
    undefined,
    otherToken,
  );
  const otherCode = await freshCode(otherEnrolment.secret, null);
  await apiCall(server.baseUrl, 'POST', '/auth/two-factor/activation', { code: otherCode.code }, otherToken);

  // The manager signs in with the password alone and opens the two-factor screen from the user menu.
  const page = await newPage(lang);
  await fillCredentials(page, managerEmail, PASSWORD);
  await page.getByTestId('menu-clients').waitFor();
  await page.getByRole('button', { name: LABELS[lang].userMenu }).click();
  await page.getByTestId('menu-two-factor').click();
  await page.getByTestId('two-factor-start').click();
  await page.getByTestId('two-factor-qr').waitFor();
  // The QR image is a data: URL the console's CSP allows; it must have loaded, not been blocked.
  const qrLoaded = await page
    .getByTestId('two-factor-qr')
    .evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0);
  assert.ok(qrLoaded, 'the QR code image is shown');
  const secret = ((await page.getByTestId('two-factor-secret').textContent()) ?? '').trim();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await screenshot(page, `two-factor-${lang}-01-enrol`);

  const activation = await freshCode(secret, null);
  await page.getByTestId('two-factor-code').fill(activation.code);
  await page.getByTestId('two-factor-confirm').click();
  await page.getByTestId('recovery-codes').waitFor();
  const recoveryCodes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
  assert.equal(recoveryCodes.length, 10);
  await screenshot(page, `two-factor-${lang}-02-recovery-codes`);
  await page.getByTestId('recovery-codes-done').click();
  await page.waitForFunction(
    (wanted) => (document.querySelector('[data-testid="two-factor-status"]')?.textContent ?? '') === wanted,
    lang === 'he' ? 'מופעלת' : 'On',
  );
  await screenshot(page, `two-factor-${lang}-03-enabled`);

  // Signed out, the password alone now leads to the code step; the next code from the authenticator opens the console.
  await signOut(page, lang);
  await fillCredentials(page, managerEmail, PASSWORD);
  await page.getByTestId('login-otp').waitFor();
  await screenshot(page, `two-factor-${lang}-04-code-step`);
  const signInCode = await freshCode(secret, activation.step);
  await page.getByTestId('login-otp').fill(signInCode.code);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu-clients').waitFor();

  // A recovery code opens it once.
  await signOut(page, lang);
  await fillCredentials(page, managerEmail, PASSWORD);
  await page.getByTestId('login-otp').fill(recoveryCodes[0]);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('menu-clients').waitFor();
  await screenshot(page, `two-factor-${lang}-05-signed-in-with-recovery-code`);
  await signOut(page, lang);
  await fillCredentials(page, managerEmail, PASSWORD);
  await page.getByTestId('login-otp').fill(recoveryCodes[0]);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('login-error').waitFor();
  await page.context().close();

  // The admin finds the other manager in the staff list (ADR 0078), where two-factor reads On, opens them and resets it.
  const admin = await newPage(lang);
  await fillCredentials(admin, ADMIN_EMAIL, ADMIN_PASSWORD);
  await admin.getByTestId('menu-staff').click();
  const row = await onlyRowFound(admin, 'staff', otherEmail);
  assert.equal(await row.getByTestId('staff-two-factor').textContent(), LABELS[lang].on);
  await screenshot(admin, `two-factor-${lang}-06-staff-list`);
  await row.click();
  await admin.waitForURL(`**/admin/clients/${otherUuid}/show`);
  await admin.getByTestId('two-factor-reset-open').click();
  await admin.getByRole('dialog').getByRole('button', { name: LABELS[lang].reset }).waitFor();
  // The dialog fades in; the screenshot waits for it to settle.
  await admin.waitForTimeout(500);
  await screenshot(admin, `two-factor-${lang}-07-reset-confirm`);
  await admin.getByRole('dialog').getByRole('button', { name: LABELS[lang].reset }).click();
  await admin.getByTestId('two-factor-reset-open').waitFor({ state: 'detached' });
  await screenshot(admin, `two-factor-${lang}-08-reset-done`);
  await admin.context().close();

  // The other manager signs in with the password alone: no code step, straight into the console.
  const other = await newPage(lang);
  await fillCredentials(other, otherEmail, PASSWORD);
  await other.getByTestId('menu-clients').waitFor();
  assert.equal(await other.getByTestId('login-otp').count(), 0);
  await other.context().close();

  // The activity log names the reset.
  const log = await apiCall<{ content: Array<{ eventType: string }> }>(
    server.baseUrl,
    'POST',
    '/audit-logs/search',
    { targetAndParentIds: [otherUuid] },
    adminToken,
  );
  assert.ok(log.content.some((entry) => entry.eventType === 'UserTwoFactorReset'));
}

describe('staff two-factor journey', { timeout: 300_000 }, () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('enrol, sign in with a code and with a recovery code, admin reset, in Hebrew', async () => {
    await twoFactorJourney('he');
  });

  it('enrol, sign in with a code and with a recovery code, admin reset, in English', async () => {
    await twoFactorJourney('en');
  });
});

/**
 * Issue 27: a staff session opened with the password alone, before the operator turned `STAFF_2FA_REQUIRED` on and
 * restarted the server, ends at the console's next call, and the sign-in page says why rather than showing a bare
 * form.
 */
describe('a staff session that ended by policy', { timeout: 300_000 }, () => {
  let first: KupaServer | null = null;
  let restarted: KupaServer | null = null;
  let policyBrowser: Browser | null = null;

  before(async () => {
    first = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    policyBrowser = await launchBrowser();
  });

  after(async () => {
    await policyBrowser?.close();
    await (restarted ?? first)?.stop();
  });

  it('lands on the sign-in page that says to sign in again with a code, in Hebrew', async () => {
    if (!first || !policyBrowser) throw new Error('The journey did not start');
    const context = await policyBrowser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${first.baseUrl}/admin/`);
    await page.getByTestId('login-email').fill(ADMIN_EMAIL);
    await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('menu-clients').waitFor();

    await first.stop({ keepData: true });
    restarted = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD, STAFF_2FA_REQUIRED: '1' }, { restartOf: first });

    await page.reload();
    const notice = page.getByTestId('login-session-ended');
    await notice.waitFor();
    const text = (await notice.textContent()) ?? '';
    assert.match(text, /נותקתם מהמערכת/);
    assert.match(text, /צוות חייב להתחבר עם קוד חד-פעמי/);
    await screenshot(page, 'two-factor-he-09-session-ended-by-policy');

    // The password alone no longer opens a session: the form goes on to enrolment, and the explanation gives way.
    await page.getByTestId('login-email').fill(ADMIN_EMAIL);
    await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('login-enrol-intro').waitFor();
    assert.equal(await page.getByTestId('login-session-ended').count(), 0);
    await context.close();
  });
});
