import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { onlyRowFound } from '../support/console-lists.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';

/**
 * The ledger journey (issue 3): an admin deposits to a client in the console, the client transfers part of it to
 * another client, who sees it, and the admin's CSV export holds those rows.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const PASSWORD = 'Client-Pass-1!';

let server: KupaServer;
let browser: Browser;

async function newPage(lang: 'he' | 'en'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  // Both apps read the persisted language store before they render.
  await context.addInitScript((value) => {
    localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
  }, lang);
  return context.newPage();
}

async function createClient(adminToken: string, email: string, firstName: string): Promise<string> {
  const user = await apiCall<{ userUuid: string }>(
    server.baseUrl,
    'POST',
    '/users',
    { email, firstName, lastName: 'Journey', role: 'CLIENT', password: PASSWORD },
    adminToken,
  );
  return user.userUuid;
}

async function clientSignIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('balance').waitFor();
}

/** Waits until the balance chip shows the amount (it loads after the layout). */
async function waitForBalance(page: Page, amount: string): Promise<void> {
  await page.waitForFunction(
    (wanted) => (document.querySelector('[data-testid="balance"]')?.textContent ?? '').includes(wanted),
    amount,
  );
}

async function ledgerJourney(lang: 'he' | 'en', suffix: string): Promise<void> {
  const adminToken = await signInToken(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const alice = `alice.${suffix}@example.com`;
  const bob = `bob.${suffix}@example.com`;
  await createClient(adminToken, alice, 'Alice');
  const bobUuid = await createClient(adminToken, bob, 'Bob');

  // The admin books a manual deposit of $50 to Alice.
  const admin = await newPage(lang);
  await admin.goto(`${server.baseUrl}/admin/`);
  await admin.getByTestId('login-email').fill(ADMIN_EMAIL);
  await admin.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await admin.getByTestId('login-submit').click();
  await admin.getByTestId('menu-clients').click();
  await (await onlyRowFound(admin, 'clients', alice)).click();
  await admin.getByTestId('fix-balance-open').click();
  await admin.getByTestId('fix-balance-action').selectOption('DEPOSIT');
  await admin.getByTestId('fix-balance-amount').fill('50');
  await admin.getByTestId('fix-balance-comment').fill(lang === 'he' ? 'הפקדה בהעברה בנקאית' : 'Bank transfer received');
  await screenshot(admin, `ledger-${lang}-01-fix-balance`);
  await admin.getByTestId('fix-balance-submit').click();
  await admin.waitForFunction(() =>
    (document.querySelector('[data-testid="client-balance"]')?.textContent ?? '').includes('50.00'),
  );
  await screenshot(admin, `ledger-${lang}-02-client-balance`);

  // Alice sees $50 and sends $12.50 to Bob after confirming amount and recipient.
  const alicePage = await newPage(lang);
  await clientSignIn(alicePage, alice);
  await waitForBalance(alicePage, '50.00');
  await alicePage.goto(`${server.baseUrl}/payments`);
  await alicePage.getByTestId('transfer-open').click();
  await alicePage.getByTestId('transfer-recipient').fill(bob);
  await alicePage.getByTestId('transfer-amount').fill('12.5');
  await alicePage.getByTestId('transfer-continue').click();
  const confirmation = (await alicePage.getByTestId('transfer-confirm-text').textContent()) ?? '';
  assert.match(confirmation, /12\.50/);
  // The server named the recipient as registered, with the e-mail masked.
  assert.ok(confirmation.includes('Bob Journey'), `the confirmation names the recipient: ${confirmation}`);
  assert.ok(confirmation.includes('b***@e***.com'), `the confirmation shows the masked e-mail: ${confirmation}`);
  assert.ok(!confirmation.includes(bob), 'the confirmation never shows the whole e-mail');
  await screenshot(alicePage, `ledger-${lang}-03-transfer-confirm`);
  await alicePage.getByTestId('transfer-confirm').click();
  await waitForBalance(alicePage, '37.50');
  await alicePage.getByTestId('payments-row').first().waitFor();
  await screenshot(alicePage, `ledger-${lang}-04-alice-payments`);

  // Bob sees the money and the incoming transfer.
  const bobPage = await newPage(lang);
  await clientSignIn(bobPage, bob);
  await waitForBalance(bobPage, '12.50');
  await bobPage.goto(`${server.baseUrl}/payments`);
  const bobRow = bobPage.getByTestId('payments-row').first();
  await bobRow.waitFor();
  assert.equal(await bobPage.getByTestId('payments-row').count(), 1);
  assert.equal(
    await bobRow.getByTestId('payments-row-type').textContent(),
    lang === 'he' ? 'העברה נכנסת' : 'Transfer in',
  );
  await screenshot(bobPage, `ledger-${lang}-05-bob-payments`);

  // The admin exports the payments CSV; it starts with a BOM and holds the three rows.
  await admin.getByTestId('menu-payments').click();
  await admin.getByTestId('payments-row').first().waitFor();
  await screenshot(admin, `ledger-${lang}-06-admin-payments`);
  const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByTestId('payments-export').click()]);
  assert.equal(download.suggestedFilename(), 'payments.csv');
  const csv = readFileSync(await download.path(), 'utf8');
  assert.ok(csv.startsWith('\uFEFF'), 'the CSV starts with a UTF-8 BOM');
  // The file speaks the console's language, and amounts are signed from the client's side.
  const lines = csv.split(/\r?\n/);
  const has = (line: string, ...parts: string[]) => parts.every((part) => line.split(',').includes(part));
  const label = {
    deposit: ['הפקדה', 'Deposit'],
    out: ['העברה יוצאת', 'Transfer out'],
    in: ['העברה נכנסת', 'Transfer in'],
  };
  const pick = (pair: string[]) => (lang === 'he' ? pair[0] : pair[1]);
  const aliceDeposit = lines.find((line) => has(line, alice, pick(label.deposit), '50.00'));
  const aliceOut = lines.find((line) => has(line, alice, pick(label.out), '-12.50'));
  const bobIn = lines.find((line) => has(line, bob, pick(label.in), '12.50'));
  assert.ok(aliceDeposit && aliceOut && bobIn, `the export holds the deposit and both transfer rows:\n${csv}`);
  assert.ok(lines[0].includes(lang === 'he' ? 'מספר תשלום' : 'Payment number'), `the header is in ${lang}`);
  await screenshot(admin, `ledger-${lang}-07-exported`);

  await keepTheClientsMessage(lang, adminToken, admin, bobPage, bobUuid);
  for (const page of [admin, alicePage, bobPage]) await page.context().close();
}

/**
 * Issue 30 (ADR 0078): staff change a manual payment's status without typing a note, and the message the client had
 * been shown stays: the staff detail still shows it as what the client sees, and so does the client's payment detail.
 * Runs after the export, so the payment is not among the rows the export checks.
 */
async function keepTheClientsMessage(
  lang: 'he' | 'en',
  adminToken: string,
  admin: Page,
  client: Page,
  clientUuid: string,
): Promise<void> {
  const message = lang === 'he' ? 'ההחזר על חודש מרץ, בתודה על הסבלנות' : 'Your March refund, thanks for your patience';
  const payment = await apiCall<{ paymentId: number }>(
    server.baseUrl,
    'POST',
    '/payments',
    { userUuid: clientUuid, amount: 5, action: 'DEPOSIT', comment: 'March refund', publicNote: message },
    adminToken,
  );
  await admin.goto(`${server.baseUrl}/admin/payments/${payment.paymentId}/show`);
  const shownToClient = admin.getByTestId('payment-status-current-note');
  await shownToClient.waitFor();
  assert.ok(((await shownToClient.textContent()) ?? '').includes(message));
  await admin.getByTestId('payment-status-select').selectOption('PENDING');
  assert.equal(await admin.getByTestId('payment-status-public-note').inputValue(), '');
  await admin.getByTestId('payment-status-save').click();
  await admin.getByText(lang === 'he' ? 'סטטוס התשלום שונה' : 'The payment status was changed').waitFor();
  // The form is drawn again for the new status, still saying what the client sees.
  await admin.waitForFunction(
    (wanted) =>
      (document.querySelector('[data-testid="payment-status-current-note"]')?.textContent ?? '').includes(wanted),
    message,
  );
  await screenshot(admin, `ledger-${lang}-08-status-changed-note-kept`);

  await client.goto(`${server.baseUrl}/payments/${payment.paymentId}`);
  await client.getByTestId('payment-detail-public-note').waitFor();
  assert.ok(((await client.getByTestId('payment-detail-public-note').textContent()) ?? '').includes(message));
  assert.ok(
    ((await client.getByTestId('payment-detail-status').textContent()) ?? '').includes(
      lang === 'he' ? 'ממתין' : 'Pending',
    ),
  );
  await screenshot(client, `ledger-${lang}-09-client-sees-the-message`);
}

describe('ledger journey', { timeout: 240_000 }, () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('deposit, transfer and export, in Hebrew', async () => {
    await ledgerJourney('he', 'he');
  });

  it('deposit, transfer and export, in English', async () => {
    await ledgerJourney('en', 'en');
  });
});
