import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { generateSync } from 'otplib';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { settle } from '../support/layout.ts';

/**
 * The client's side of issue 33 through the portal, once in Hebrew and once in English: a client funded by a manual
 * deposit turns two-factor sign-in on in the profile (the QR code's key read as text, codes from otplib as a phone's
 * authenticator app computes them), is refused a transfer without a code and with a wrong one and sends it with the
 * right one, opens the deposit's receipt and downloads its PDF (checked with poppler's `pdftotext`), downloads the
 * statement as CSV (and as PDF when the statement page offers it), signs in from a second browser (another device,
 * password and code) and ends that session from the first, after which the second browser is sent to sign in again.
 * Docs: ADR 0096 (statements), 0097 (receipts), 0098 (client two-factor and step-up), 0099 (sessions).
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const PASSWORD = 'Client-Pass-1!';
const DEPOSIT_DOLLARS = 100;
const TRANSFER_DOLLARS = 12.5;
const PERIOD_SECONDS = 30;
/** The steps either side of its own that the server accepts (proto's `LIMITS.totpToleranceSteps`). */
const TOLERANCE_STEPS = 1;
/** The loaded machine's answers can be slow: every wait on visible state is bounded by this, never a fixed sleep. */
const WAIT_MS = 60_000;
/** The second device: a phone's Firefox, so that the sessions list tells it apart from the first browser. */
const OTHER_DEVICE_AGENT = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';

type Lang = 'he' | 'en';

/** What the portal says, in each language (proto's error catalogue, the two-factor and sessions words). */
const WORDS = {
  he: {
    stepUpHint: 'האימות הדו-שלבי מופעל: הזינו את הקוד הנוכחי מאפליקציית האימות.',
    wrongCode: 'הקוד שגוי, שפג תוקפו או שכבר נעשה בו שימוש',
    on: 'מופעל',
    receiptTitle: 'קבלה',
    csvHeader: 'מועד',
    manualDeposit: 'הפקדה ידנית',
    outgoingTransfer: 'העברה יוצאת',
  },
  en: {
    stepUpHint: 'Two-factor sign-in is on: enter the current code from your authenticator app.',
    wrongCode: 'The code is incorrect, expired or already used',
    on: 'On',
    receiptTitle: 'Receipt',
    csvHeader: 'Date',
    manualDeposit: 'manual deposit',
    outgoingTransfer: 'transfer sent',
  },
} as const;

let server: KupaServer;
let browser: Browser;
let adminToken: string;

function stepOf(date: Date): number {
  return Math.floor(date.getTime() / 1000 / PERIOD_SECONDS);
}

/**
 * A code of a time-step after `usedStep`, as the staff journey computes it: the server refuses a step not newer than
 * the last one used, and accepts a code of the step on either side of its own (`LIMITS.totpToleranceSteps`), as from
 * an authenticator whose clock runs a little ahead. So a journey that needs three codes within a minute types the
 * next step's code at once rather than sleeping for it; only a step beyond the tolerance is waited for.
 *
 * The first code (no step used yet) is the previous step's while the current step has at least ten seconds left in
 * which the server still takes it: the journey's later codes then fall in the current and the next step, usually
 * without any wait at all.
 */
async function freshCode(secret: string, usedStep: number | null): Promise<{ code: string; step: number }> {
  const now = new Date();
  const secondsIntoStep = (now.getTime() / 1000) % PERIOD_SECONDS;
  const earliest =
    usedStep === null ? stepOf(now) - (secondsIntoStep < PERIOD_SECONDS - 10 ? TOLERANCE_STEPS : 0) : usedStep + 1;
  const step = Math.max(earliest, stepOf(now) - TOLERANCE_STEPS);
  while (step - stepOf(new Date()) > TOLERANCE_STEPS) await new Promise((resolve) => setTimeout(resolve, 500));
  return { code: generateSync({ secret, epoch: step * PERIOD_SECONDS }), step };
}

/** Six digits that are none of the codes the server would take now. */
function wrongCodeFor(secret: string): string {
  const now = stepOf(new Date());
  const valid = new Set(
    [-2, -1, 0, 1, 2].map((offset) => generateSync({ secret, epoch: (now + offset) * PERIOD_SECONDS })),
  );
  for (let candidate = 0; ; candidate += 1) {
    const code = String((123456 + candidate * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

async function newContext(lang: Lang, userAgent?: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: lang === 'en' ? 'en-GB' : 'he-IL',
    ...(userAgent ? { userAgent } : {}),
  });
  context.setDefaultTimeout(WAIT_MS);
  await context.addInitScript((value) => {
    if (localStorage.getItem('lang') === null)
      localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
  }, lang);
  return context;
}

/** A client made by the admin and funded by a manual deposit (which earns a receipt), and someone to send money to. */
async function fundedClient(lang: Lang): Promise<{ email: string; recipientEmail: string }> {
  const email = `security.${lang}@example.com`;
  const recipientEmail = `recipient.${lang}@example.com`;
  const { userUuid } = await apiCall<{ userUuid: string }>(
    server.baseUrl,
    'POST',
    '/users',
    { email, firstName: lang === 'he' ? 'נועה' : 'Noa', lastName: 'Security', role: 'CLIENT', password: PASSWORD },
    adminToken,
  );
  await apiCall(
    server.baseUrl,
    'POST',
    '/users',
    { email: recipientEmail, firstName: 'Dan', lastName: 'Recipient', role: 'CLIENT', password: PASSWORD },
    adminToken,
  );
  await apiCall(
    server.baseUrl,
    'POST',
    '/payments',
    { userUuid, amount: DEPOSIT_DOLLARS, action: 'DEPOSIT', comment: 'Security journey' },
    adminToken,
  );
  return { email, recipientEmail };
}

async function waitForBalanceLoaded(page: Page): Promise<void> {
  await page.getByTestId('balance').waitFor();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="balance"]')?.getAttribute('aria-busy') !== 'true',
  );
}

/** Waits until the app bar's balance reads `dollars` (it refreshes after the request that changed it). */
async function waitForBalance(page: Page, dollars: number): Promise<void> {
  await page.waitForFunction((wanted) => {
    const text = document.querySelector('[data-testid="balance"] bdi')?.textContent ?? '';
    const match = text.replace(/,/g, '').match(/\d+(?:\.\d+)?/);
    return match !== null && Number(match[0]) === wanted;
  }, dollars);
}

/** The password, then (with two-factor on) the code step the server asks for. */
async function clientSignIn(page: Page, email: string, code?: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  if (code !== undefined) {
    await page.getByTestId('login-otp').fill(code);
    await page.getByTestId('login-submit').click();
  }
  await waitForBalanceLoaded(page);
}

/** The message under a field (its first `aria-describedby`), waited for until it reads `message`. */
async function waitForFieldMessage(page: Page, inputTestId: string, message: string): Promise<void> {
  const shown = () =>
    page.evaluate((testId) => {
      const input = document.querySelector(`[data-testid="${testId}"]`);
      const id = input?.getAttribute('aria-describedby')?.split(' ')[0];
      return id === undefined ? null : (document.getElementById(id)?.textContent ?? null);
    }, inputTestId);
  try {
    await page.waitForFunction(
      ({ testId, wanted }) => {
        const input = document.querySelector(`[data-testid="${testId}"]`);
        const id = input?.getAttribute('aria-describedby')?.split(' ')[0];
        return id !== undefined && document.getElementById(id)?.textContent === wanted;
      },
      { testId: inputTestId, wanted: message },
      { timeout: WAIT_MS },
    );
  } catch {
    assert.equal(await shown(), message, `the message under ${inputTestId}`);
  }
}

/** The profile's two-factor section: QR code, its key as text, the first code, the recovery codes shown once. */
async function enrolTwoFactor(page: Page, lang: Lang): Promise<{ secret: string; step: number }> {
  await page.goto(`${server.baseUrl}/my-profile`);
  await page.getByTestId('two-factor-turn-on').click();
  await page.getByTestId('two-factor-qr').waitFor();
  const qrLoaded = await page
    .getByTestId('two-factor-qr')
    .evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0);
  assert.ok(qrLoaded, 'the QR code image is shown, not blocked');
  const secret = ((await page.getByTestId('two-factor-secret').textContent()) ?? '').trim();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await screenshot(page, `client-security-${lang}-01-enrol`);

  const activation = await freshCode(secret, null);
  await page.getByTestId('two-factor-code').fill(activation.code);
  await page.getByTestId('two-factor-submit').click();
  const recoveryCodes = page.getByTestId('two-factor-recovery-codes').locator('li');
  await recoveryCodes.first().waitFor();
  assert.equal(await recoveryCodes.count(), 10, 'ten recovery codes');
  await screenshot(page, `client-security-${lang}-02-recovery-codes`);
  await page.getByTestId('two-factor-recovery-saved').click();
  await page.getByTestId('two-factor-turn-off').waitFor();
  assert.equal(((await page.getByTestId('two-factor-state').textContent()) ?? '').trim(), WORDS[lang].on);
  return { secret, step: activation.step };
}

/** A transfer whose dialog asks for a code: refused without one and with a wrong one, sent with the right one. */
async function transferWithCode(
  page: Page,
  lang: Lang,
  recipientEmail: string,
  secret: string,
  usedStep: number,
): Promise<number> {
  await page.goto(`${server.baseUrl}/payments`);
  await page.getByTestId('transfer-open').click();
  await page.getByTestId('transfer-recipient').fill(recipientEmail);
  await page.getByTestId('transfer-amount').fill(String(TRANSFER_DOLLARS));
  await page.getByTestId('transfer-continue').click();
  await page.getByTestId('transfer-confirm-name').waitFor();
  assert.equal(await page.getByTestId('transfer-confirm-name').textContent(), 'Dan Recipient');

  // No code: the dialog asks for it and sends nothing.
  await page.getByTestId('transfer-confirm').click();
  await waitForFieldMessage(page, 'transfer-otp', WORDS[lang].stepUpHint);
  // A wrong code: the server refuses it in the catalogue's words, the dialog stays open, the balance is unchanged.
  await page.getByTestId('transfer-otp').fill(wrongCodeFor(secret));
  await page.getByTestId('transfer-confirm').click();
  await waitForFieldMessage(page, 'transfer-otp', WORDS[lang].wrongCode);
  assert.equal(await page.getByTestId('transfer-otp').getAttribute('aria-invalid'), 'true');
  await screenshot(page, `client-security-${lang}-03-transfer-wrong-code`);
  await waitForBalance(page, DEPOSIT_DOLLARS);

  // The authenticator's next code sends it; the payments list opens with the new balance.
  const right = await freshCode(secret, usedStep);
  await page.getByTestId('transfer-otp').fill(right.code);
  await page.getByTestId('transfer-confirm').click();
  await page.waitForURL(`${server.baseUrl}/payments`);
  await waitForBalance(page, DEPOSIT_DOLLARS - TRANSFER_DOLLARS);
  return right.step;
}

/** The saved file's bytes. */
function bytesOf(download: Download): Promise<Buffer> {
  return download.path().then((path) => readFileSync(path));
}

/** The text poppler reads from a PDF, as a person copying it out would get it. */
function pdfText(pdf: Buffer, path: string): string {
  assert.equal(pdf.subarray(0, 4).toString('latin1'), '%PDF', 'the file is a PDF');
  return execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
}

/**
 * The deposit's receipt, from the payments page's link: the processor numbers receipts in commit order (ADR 0097), a
 * moment after the payment, so the list is opened again until it shows one (bounded).
 */
async function downloadReceipt(page: Page, lang: Lang): Promise<void> {
  await page.goto(`${server.baseUrl}/payments`);
  await page.getByTestId('receipts-open').click();
  await page.waitForURL(`${server.baseUrl}/receipts`);
  const item = page.getByTestId('receipt-item').first();
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await item.waitFor({ timeout: 5_000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.reload();
    }
  }
  assert.equal(await page.getByTestId('receipt-item').count(), 1, 'one receipt: the deposit (a transfer earns none)');
  const number = Number(await item.getAttribute('data-number'));
  assert.ok(Number.isInteger(number) && number > 0, `a receipt number: ${number}`);
  await screenshot(page, `client-security-${lang}-04-receipts`);

  await item.getByTestId('receipt-link').click();
  await page.getByTestId('receipt').waitFor();
  assert.equal(Number(await page.getByTestId('receipt').getAttribute('data-number')), number);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('receipt-download').click()]);
  assert.equal(download.suggestedFilename(), `receipt-${number}.pdf`);
  const text = pdfText(await bytesOf(download), await download.path());
  assert.match(text, new RegExp(`(^|\\D)${number}(\\D|$)`), `the PDF names receipt ${number}:\n${text}`);
  assert.ok(text.includes(WORDS[lang].receiptTitle), `the PDF is in the client's language:\n${text}`);
  assert.ok(text.includes(`security.${lang}@example.com`), `the PDF names the client:\n${text}`);
  await screenshot(page, `client-security-${lang}-05-receipt`);
}

/** The statement page's CSV of the current period: opening, the deposit, the transfer out, closing. */
async function downloadStatement(page: Page, lang: Lang): Promise<void> {
  await page.goto(`${server.baseUrl}/payments`);
  await page.getByTestId('statement-open').click();
  await page.getByTestId('statement').waitFor();
  await settle(page);
  await screenshot(page, `client-security-${lang}-06-statement`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('statement-csv').click()]);
  assert.match(download.suggestedFilename(), /^statement-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await bytesOf(download)).toString('utf8');
  assert.ok(csv.startsWith('\uFEFF'), 'the CSV starts with a byte order mark, for spreadsheets');
  const lines = csv
    .slice(1)
    .split(/\r?\n/)
    .filter((line) => line !== '');
  assert.ok(lines[0].startsWith(WORDS[lang].csvHeader), `the header is in the client's language: ${lines[0]}`);
  const deposit = lines.find((line) => line.includes(WORDS[lang].manualDeposit));
  const transfer = lines.find((line) => line.includes(WORDS[lang].outgoingTransfer));
  assert.ok(deposit?.endsWith(`,${DEPOSIT_DOLLARS.toFixed(2)},${DEPOSIT_DOLLARS.toFixed(2)}`), `deposit: ${csv}`);
  const closing = (DEPOSIT_DOLLARS - TRANSFER_DOLLARS).toFixed(2);
  assert.ok(transfer?.endsWith(`,-${TRANSFER_DOLLARS.toFixed(2)},${closing}`), `transfer: ${csv}`);
  assert.ok(lines.at(-1)?.endsWith(`,${closing}`), `the closing balance: ${csv}`);

  // The statement's PDF, where the page offers it (another change adds it): the same closing balance in it.
  const pdfButton = page.getByTestId('statement-pdf');
  if ((await pdfButton.count()) > 0) {
    const [pdfDownload] = await Promise.all([page.waitForEvent('download'), pdfButton.click()]);
    const text = pdfText(await bytesOf(pdfDownload), await pdfDownload.path());
    assert.ok(text.includes(closing), `the statement PDF shows the closing balance ${closing}:\n${text}`);
  }
}

/**
 * A second browser (another device) signs in with the password and the next code; the first ends that session from
 * the profile's list, and the second, at its next request, is sent to sign in again.
 */
async function endAnotherSession(
  first: Page,
  lang: Lang,
  email: string,
  secret: string,
  usedStep: number,
): Promise<void> {
  const otherContext = await newContext(lang, OTHER_DEVICE_AGENT);
  try {
    const other = await otherContext.newPage();
    const code = await freshCode(secret, usedStep);
    await clientSignIn(other, email, code.code);
    await waitForBalance(other, DEPOSIT_DOLLARS - TRANSFER_DOLLARS);

    await first.goto(`${server.baseUrl}/my-profile`);
    const sessions = first.getByTestId('session');
    await first.getByTestId('sessions').waitFor();
    await first.waitForFunction(() => document.querySelectorAll('[data-testid="session"]').length === 2);
    const current = sessions.filter({ has: first.getByTestId('session-current') });
    const another = sessions.filter({ hasNot: first.getByTestId('session-current') });
    assert.equal(await current.count(), 1, 'this browser is marked as this device');
    assert.match((await another.getByTestId('session-device').textContent()) ?? '', /Firefox/);
    assert.match((await another.getByTestId('session-device').textContent()) ?? '', /Android/);
    await screenshot(first, `client-security-${lang}-07-sessions`);
    await another.getByTestId('session-end').click();
    await first.getByTestId('sessions-none').waitFor();
    assert.equal(await sessions.count(), 1, 'only this session is left');
    await screenshot(first, `client-security-${lang}-08-session-ended`);

    // The ended session's next request is refused: the second browser lands on the sign-in form.
    await other.goto(`${server.baseUrl}/payments`);
    await other.getByTestId('login-email').waitFor();
    await other.waitForURL(/\/login/);
    // The sign-in page says why, rather than showing a bare form.
    await other.getByTestId('session-ended-notice').waitFor();
    assert.equal(await other.getByTestId('balance').count(), 0, 'nothing of the account is shown');
    await screenshot(other, `client-security-${lang}-09-other-device-signed-out`);

    // The first browser's own session goes on.
    await first.goto(`${server.baseUrl}/payments`);
    await waitForBalance(first, DEPOSIT_DOLLARS - TRANSFER_DOLLARS);
  } finally {
    await otherContext.close();
  }
}

async function securityJourney(lang: Lang): Promise<void> {
  const { email, recipientEmail } = await fundedClient(lang);
  const context = await newContext(lang);
  try {
    const page = await context.newPage();
    await clientSignIn(page, email);
    assert.equal(await page.evaluate(() => document.documentElement.dir), lang === 'he' ? 'rtl' : 'ltr');
    const enrolment = await enrolTwoFactor(page, lang);
    const transferStep = await transferWithCode(page, lang, recipientEmail, enrolment.secret, enrolment.step);
    await downloadReceipt(page, lang);
    await downloadStatement(page, lang);
    await endAnotherSession(page, lang, email, enrolment.secret, transferStep);
  } finally {
    await context.close();
  }
}

describe('client security journey (two-factor, step-up, receipts, statement, sessions)', { timeout: 600_000 }, () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
    adminToken = await signInToken(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('in Hebrew: enrol, transfer with a code, a receipt and a statement downloaded, another session ended', async () => {
    await securityJourney('he');
  });

  it('in English: enrol, transfer with a code, a receipt and a statement downloaded, another session ended', async () => {
    await securityJourney('en');
  });
});
