import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type AxeFinding, describeFindings, seriousAccessibilityFindings } from '../support/accessibility.ts';
import { apiCall, signInToken } from '../support/api-client.ts';
import { launchBrowser, screenshot } from '../support/browser.ts';
import { type KupaServer, startKupaServer } from '../support/kupa-server.ts';
import { horizontalOverflow, settle, showColorScheme } from '../support/layout.ts';

/**
 * Offers (issue 32): promo codes (docs/adr/0088-promo-codes.md) and prepaid vouchers (docs/adr/0089-prepaid-vouchers.md)
 * through the browser. The admin, in the Hebrew console, creates a 20 % code for five uses and a batch of three $10
 * vouchers recorded as sold, and reads the codes from the batch's downloaded CSV. A Hebrew client buys a package with
 * the code (the list price struck through beside the new one) and redeems a voucher from its /redeem/{code} link; an
 * English client buys with the code, redeems a voucher in the payments page's box and renews with the code. Wrong and
 * used voucher codes are refused in the catalogue's words, and the console counts the code's uses and revenue and the
 * batch's redemptions. The admin then adds two days to every active subscription as one bulk batch and reads its
 * counts; in the English console it creates a code and a batch given away, adds two days again and reads the
 * results CSV. The new screens are photographed (`offers-<lang>-…`, both languages, both palettes, 390 and 1280
 * wide), checked for sideways scrolling and run through axe-core.
 */
const ADMIN_EMAIL = 'root@kupa.test';
const ADMIN_PASSWORD = 'Root-Pass-2026!';
const PASSWORD = 'Client-Pass-1!';
const ACTIVE_TIMEOUT_MS = Number(process.env.SUBSCRIPTION_ACTIVE_TIMEOUT_MS ?? 60_000);

const PROMO_CODE = 'JOURNEY20';
const PLAN = { name: 'חבילת מבצע', price: 50, promoPrice: 40 } as const;
const VOUCHER = { label: 'שוברי מסע', count: 3, amount: 10 } as const;
const DEPOSIT = 100;

/** The catalogue's refusals of a voucher code (proto's errors.ts), as the client reads them under the field. */
const VOUCHER_REFUSALS = {
  he: { invalid: 'קוד השובר אינו תקף', used: 'קוד השובר כבר מומש' },
  en: { invalid: 'This voucher code is not valid', used: 'This voucher code was already redeemed' },
} as const;

type Lang = 'he' | 'en';
type ColorScheme = 'light' | 'dark';

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
} as const;
type Width = keyof typeof VIEWPORTS;

const ALL_VARIANTS = [
  { width: 'desktop', scheme: 'light' },
  { width: 'phone', scheme: 'light' },
  { width: 'desktop', scheme: 'dark' },
  { width: 'phone', scheme: 'dark' },
] as const satisfies ReadonlyArray<{ width: Width; scheme: ColorScheme }>;

let server: KupaServer;
let browser: Browser;
let adminToken: string;
let planId: string;
/** The admin's console, signed in once and kept for both clients' runs. */
let adminContext: BrowserContext;
let admin: Page;
/** The batch's codes as the downloaded CSV lists them, handed out one per redemption. */
let voucherCodes: string[] = [];
let voucherBatchId = '';
/** Problems seen on the screens (sideways scrolling, axe findings), reported at the end of each run. */
let screenProblems: string[] = [];

/** A subscription's end as staff read it. */
async function subscriptionEnd(subscriptionId: string): Promise<string> {
  const read = await apiCall<{ endDate: string }>(
    server.baseUrl,
    'GET',
    `/subscriptions/${subscriptionId}`,
    undefined,
    adminToken,
  );
  return read.endDate;
}

async function newContext(lang: Lang): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: lang === 'en' ? 'en-GB' : 'he-IL' });
  // Both apps read the persisted language store before they render; a later switch (which reloads) is kept.
  await context.addInitScript((value) => {
    if (localStorage.getItem('lang') === null)
      localStorage.setItem('lang', JSON.stringify({ state: { lang: value }, version: 0 }));
  }, lang);
  return context;
}

/**
 * Photographs the current screen in every width and palette (`offers-<lang>-<name>-<scheme>-<width>.png`), checks
 * that it does not scroll sideways, and runs axe-core once (on the first variant).
 */
async function photograph(page: Page, name: string): Promise<void> {
  const lang = await page.evaluate(() => document.documentElement.lang);
  for (const [index, variant] of ALL_VARIANTS.entries()) {
    await page.setViewportSize(VIEWPORTS[variant.width]);
    await showColorScheme(page, variant.scheme);
    await settle(page);
    const label = `offers-${lang}-${name}-${variant.scheme}-${variant.width}`;
    const overflow = await horizontalOverflow(page);
    if (overflow) {
      screenProblems.push(
        `${label}: the page is ${overflow.scrollWidth} px wide in a ${overflow.innerWidth} px viewport; ` +
          `reaching out: ${overflow.offenders.join(', ')}`,
      );
    }
    if (index === 0) {
      const findings: AxeFinding[] = await seriousAccessibilityFindings(page);
      if (findings.length > 0) screenProblems.push(describeFindings(label, findings));
    }
    await screenshot(page, label);
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await showColorScheme(page, 'light');
}

/** The dollars a piece of text shows ("$60.00", "‏60.00 $"), read as a number. */
function dollarsIn(text: string): number {
  const match = text.replace(/,/g, '').match(/\d+(?:\.\d+)?/);
  assert.ok(match, `an amount in "${text}"`);
  return Number(match[0]);
}

async function balanceShown(page: Page): Promise<number> {
  return dollarsIn((await page.getByTestId('balance').locator('bdi').textContent()) ?? '');
}

/** Waits until the app bar's balance reads `dollars` (it refreshes after the request that changed it). */
async function waitForBalance(page: Page, dollars: number): Promise<void> {
  await page.waitForFunction((wanted) => {
    const text = document.querySelector('[data-testid="balance"] bdi')?.textContent ?? '';
    const match = text.replace(/,/g, '').match(/\d+(?:\.\d+)?/);
    return match !== null && Number(match[0]) === wanted;
  }, dollars);
}

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
      { timeout: 10_000 },
    );
  } catch {
    assert.equal(await shown(), message, `the message under ${inputTestId}`);
  }
}

async function signInToConsole(page: Page): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/`);
  await page.getByTestId('login-email').fill(ADMIN_EMAIL);
  await page.getByTestId('login-password').fill(ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('dashboard').waitFor();
}

async function clientSignIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('balance').waitFor();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="balance"]')?.getAttribute('aria-busy') !== 'true',
  );
}

/** A client made by the admin and funded by a manual deposit, as the other journeys prepare theirs. */
async function fundedClient(lang: Lang): Promise<string> {
  const email = `offers.${lang}@example.com`;
  const { userUuid } = await apiCall<{ userUuid: string }>(
    server.baseUrl,
    'POST',
    '/users',
    { email, firstName: lang === 'he' ? 'נועה' : 'Noa', lastName: 'Offers', role: 'CLIENT', password: PASSWORD },
    adminToken,
  );
  await apiCall(
    server.baseUrl,
    'POST',
    '/payments',
    { userUuid, amount: DEPOSIT, action: 'DEPOSIT', comment: 'Offers journey' },
    adminToken,
  );
  return email;
}

/** The admin creates the promo code in the console: 20 % off purchases and renewals, five uses. */
async function createPromoCode(page: Page): Promise<void> {
  await page.getByTestId('menu-promo-codes').click();
  await page.getByTestId('promo-codes-empty').waitFor();
  await page.getByTestId('promo-codes-create').click();
  const dialog = page.getByTestId('promo-code-create-dialog');
  await dialog.getByTestId('promo-code-code').fill(PROMO_CODE.toLowerCase());
  assert.equal(await dialog.getByTestId('promo-code-code').inputValue(), PROMO_CODE, 'the code is typed in capitals');
  await dialog.getByTestId('promo-code-value').fill('20');
  await dialog.getByRole('checkbox', { name: 'חידושים' }).check();
  await dialog.getByRole('textbox', { name: 'מספר שימושים (רשות)' }).fill('5');
  await page.getByTestId('promo-code-save').click();
  await dialog.waitFor({ state: 'hidden' });
  const row = page.getByTestId('promo-code-row').filter({ hasText: PROMO_CODE });
  await row.waitFor();
  assert.equal((await row.getByTestId('promo-code-uses').textContent())?.trim(), '0 / 5');
  assert.equal((await row.getByTestId('promo-code-discount').textContent())?.trim(), '20%');
}

/** The admin generates the voucher batch, records it as sold and downloads its codes as CSV. */
async function createVoucherBatch(page: Page): Promise<void> {
  await page.getByTestId('menu-vouchers').click();
  await page.getByTestId('vouchers-generate-open').click();
  await page.getByTestId('vouchers-label').fill(VOUCHER.label);
  await page.getByTestId('vouchers-count').fill(String(VOUCHER.count));
  await page.getByTestId('vouchers-amount').fill(String(VOUCHER.amount));
  await page.getByTestId('vouchers-generate').click();
  const shown = page.getByTestId('vouchers-codes').locator('code');
  await shown.first().waitFor();
  const codesShown = (await shown.allTextContents()).map((code) => code.trim());
  assert.equal(codesShown.length, VOUCHER.count, `the new codes are shown once: ${codesShown.join(', ')}`);
  await page.getByRole('dialog').getByRole('button', { name: 'סגירה' }).click();

  const row = page.locator('[data-testid^="voucher-batch-"]').filter({ hasText: VOUCHER.label });
  await row.waitFor();
  voucherBatchId = ((await row.getAttribute('data-testid')) ?? '').replace('voucher-batch-', '');
  await row.getByRole('button', { name: 'רישום כנמכרה' }).click();
  await page.getByTestId('vouchers-fund-comment').fill('נמכרו בקופה, מזומן');
  await page.getByTestId('vouchers-fund').click();
  // Recorded: the dialog is gone (it hid the rest of the page from the accessibility tree) and the row says sold.
  await row.getByRole('cell', { name: 'נמכרה', exact: true }).waitFor();
  assert.equal(
    dollarsIn((await page.getByTestId('vouchers-outstanding-total').textContent()) ?? ''),
    VOUCHER.count * VOUCHER.amount,
    'the sold batch is owed in full',
  );

  const csv = await downloadCodes(page, row);
  assert.deepEqual(
    csv.map((line) => line.code),
    codesShown,
    'the CSV lists the codes the dialog showed',
  );
  assert.ok(
    csv.every((line) => line.amount === VOUCHER.amount.toFixed(2) && line.redeemedBy === ''),
    'none redeemed yet',
  );
  voucherCodes = csv.map((line) => line.code);
}

interface CsvCode {
  code: string;
  amount: string;
  redeemedBy: string;
}

/** Clicks the batch's "Codes (CSV)" and reads the file the browser saved. */
async function downloadCodes(page: Page, row: ReturnType<Page['locator']>): Promise<CsvCode[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('vouchers-csv').click()]);
  assert.equal(download.suggestedFilename(), `vouchers-${voucherBatchId}.csv`);
  const text = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  const [header, ...lines] = text.split(/\r?\n/).filter((line) => line !== '');
  assert.equal(header, 'code,amount,redeemedAt,redeemedBy');
  return lines.map((line) => {
    const [code, amount, , redeemedBy] = line.split(',').map((cell) => cell.replace(/^"|"$/g, ''));
    return { code, amount, redeemedBy };
  });
}

/** The promo code's row in the console, after a fresh load of the list. */
async function promoCodeFigures(page: Page): Promise<{ uses: string; revenue: number }> {
  await page.goto(`${server.baseUrl}/admin/promo-codes`);
  const row = page.getByTestId('promo-code-row').filter({ hasText: PROMO_CODE });
  await row.waitFor();
  return {
    uses: ((await row.getByTestId('promo-code-uses').textContent()) ?? '').trim(),
    revenue: Number(
      await row.getByTestId('promo-code-revenue').locator('[data-amount]').first().getAttribute('data-amount'),
    ),
  };
}

/** Opens the buy dialog on the package, applies the code and checks the new price beside the struck list price. */
async function buyWithCode(client: Page, lang: Lang, photographIt: boolean): Promise<string> {
  await client.goto(`${server.baseUrl}/packages`);
  const card = client.getByTestId('plan-card').filter({ hasText: PLAN.name });
  await card.getByTestId('plan-buy').click();
  await client.getByTestId('buy-dialog').waitFor();
  assert.equal(dollarsIn((await client.getByTestId('buy-price').textContent()) ?? ''), PLAN.price);
  assert.equal(await client.getByTestId('buy-price-list').count(), 0, 'no struck price before a code');

  await client.getByTestId('buy-promo-input').fill(PROMO_CODE.toLowerCase());
  await client.getByTestId('buy-promo-apply').click();
  await client.getByTestId('buy-promo-result').waitFor();
  assert.equal(dollarsIn((await client.getByTestId('buy-price-list').textContent()) ?? ''), PLAN.price);
  assert.equal(dollarsIn((await client.getByTestId('buy-price').textContent()) ?? ''), PLAN.promoPrice);
  assert.equal(await client.getByTestId('buy-price-code').textContent(), PROMO_CODE);
  const afterText = (await client.getByTestId('buy-balance').textContent()) ?? '';
  assert.ok(
    afterText.replace(/,/g, '').includes((DEPOSIT - PLAN.promoPrice).toFixed(2)),
    `the balance after is told with the code's price: ${afterText}`,
  );

  await client.getByTestId('buy-login').fill(`offers.${lang}.${Date.now().toString(36)}`);
  await client.getByTestId('buy-password').fill('Stream-Pass-1');
  await client.getByTestId('buy-confirm-password').fill('Stream-Pass-1');
  if (photographIt) await photograph(client, 'buy-dialog-with-code');
  await client.getByTestId('buy-submit').click();
  await client.waitForURL(/\/subscriptions\/[0-9a-f-]{36}$/);
  await waitForBalance(client, DEPOSIT - PLAN.promoPrice);
  return client.url().split('/').pop() ?? '';
}

/** A wrong code and a used one, typed into the box on the current page: each refused in the catalogue's words. */
async function refusedVoucherCodes(client: Page, lang: Lang, usedCode: string): Promise<void> {
  // The page has finished loading (its list included), so what is typed is not lost to a re-render.
  await settle(client);
  const balance = await balanceShown(client);
  await client.getByTestId('redeem-code').fill('WRONGCODE0000000');
  await client.getByTestId('redeem-submit').click();
  await waitForFieldMessage(client, 'redeem-code', VOUCHER_REFUSALS[lang].invalid);
  await client.getByTestId('redeem-code').fill(usedCode);
  await client.getByTestId('redeem-submit').click();
  await waitForFieldMessage(client, 'redeem-code', VOUCHER_REFUSALS[lang].used);
  assert.equal(await client.getByTestId('redeem-code').getAttribute('aria-invalid'), 'true');
  assert.equal(await balanceShown(client), balance, 'a refused code adds nothing');
}

describe('offers journey (promo codes and vouchers)', { timeout: 600_000 }, () => {
  before(async () => {
    server = await startKupaServer({ ADMIN_EMAIL, ADMIN_PASSWORD });
    browser = await launchBrowser();
    adminToken = await signInToken(server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    // The package is the subscriptions journey's to create through the console; here it is only what is bought.
    ({ id: planId } = await apiCall<{ id: string }>(
      server.baseUrl,
      'POST',
      '/payment-plans',
      {
        name: PLAN.name,
        durationInMonths: 1,
        isRecurrent: false,
        price: PLAN.price,
        currency: 'USD',
        description: 'חבילה למסע ההטבות',
        features: ['HD'],
        status: 'ACTIVE',
      },
      adminToken,
    ));
    assert.ok(planId);
    adminContext = await newContext('he');
    admin = await adminContext.newPage();
    await signInToConsole(admin);
  });

  after(async () => {
    await adminContext?.close();
    await browser?.close();
    await server?.stop();
  });

  it('the admin creates a code and a voucher batch; a Hebrew client buys with the code and redeems a link', async () => {
    screenProblems = [];
    await createPromoCode(admin);
    await createVoucherBatch(admin);
    await photograph(admin, 'console-vouchers');

    const email = await fundedClient('he');
    const context = await newContext('he');
    const client = await context.newPage();
    await clientSignIn(client, email);
    assert.equal(await client.evaluate(() => document.documentElement.dir), 'rtl');
    await buyWithCode(client, 'he', true);

    // The voucher's link fills the code in and waits for the click; redeeming leads to the payments list.
    const [code] = voucherCodes;
    await client.goto(`${server.baseUrl}/redeem/${code}`);
    assert.equal(await client.getByTestId('redeem-code').inputValue(), code);
    await photograph(client, 'redeem-page');
    assert.equal(await balanceShown(client), DEPOSIT - PLAN.promoPrice, 'opening the link spends nothing');
    await client.getByTestId('redeem-submit').click();
    // The code's worth is shown first; only the confirmation spends it.
    await client.getByTestId('redeem-preview').filter({ hasText: 'השובר מוסיף' }).waitFor();
    await photograph(client, 'redeem-preview');
    await client.getByTestId('redeem-confirm').click();
    await client.waitForURL(`${server.baseUrl}/payments`);
    await waitForBalance(client, DEPOSIT - PLAN.promoPrice + VOUCHER.amount);
    await client.getByTestId('toast').filter({ hasText: 'השובר מומש' }).waitFor();
    await refusedVoucherCodes(client, 'he', code);
    await photograph(client, 'payments-redeem-refused');
    await context.close();

    // The console counts the code's first use and the money paid with it.
    assert.deepEqual(await promoCodeFigures(admin), { uses: '1 / 5', revenue: PLAN.promoPrice });
    await photograph(admin, 'console-promo-codes');
    assert.deepEqual(screenProblems, [], `\n${screenProblems.join('\n')}`);
  });

  it('an English client buys with the code, redeems and renews with it; the admin adds days, in both languages', async () => {
    screenProblems = [];
    const email = await fundedClient('en');
    const context = await newContext('en');
    const client = await context.newPage();
    await clientSignIn(client, email);
    assert.equal(await client.evaluate(() => document.documentElement.dir), 'ltr');
    const subscriptionId = await buyWithCode(client, 'en', true);

    // The payments page's box: a voucher adds its amount; a wrong code and the Hebrew client's used one are refused.
    await client.goto(`${server.baseUrl}/payments`);
    await client.getByTestId('redeem-code').fill(voucherCodes[1]);
    await client.getByTestId('redeem-submit').click();
    await client.getByTestId('redeem-preview').filter({ hasText: 'This voucher adds' }).waitFor();
    await client.getByTestId('redeem-confirm').click();
    let balance = DEPOSIT - PLAN.promoPrice + VOUCHER.amount;
    await waitForBalance(client, balance);
    await client.getByTestId('toast').filter({ hasText: 'Voucher redeemed' }).waitFor();
    await refusedVoucherCodes(client, 'en', voucherCodes[0]);
    await photograph(client, 'payments-redeem-refused');

    // A renewal with the code, once the streaming service has opened the account.
    await client.goto(`${server.baseUrl}/subscriptions/${subscriptionId}`);
    await client.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="subscription-detail-status"] [data-value]')
          ?.getAttribute('data-value') === 'ACTIVE',
      undefined,
      { timeout: ACTIVE_TIMEOUT_MS },
    );
    await client.getByTestId('subscription-renew').click();
    await client.getByTestId('renew-promo-input').fill(PROMO_CODE);
    await client.getByTestId('renew-promo-apply').click();
    await client.getByTestId('renew-promo-result').waitFor();
    assert.equal(dollarsIn((await client.getByTestId('renew-price-list').textContent()) ?? ''), PLAN.price);
    assert.equal(dollarsIn((await client.getByTestId('renew-price').textContent()) ?? ''), PLAN.promoPrice);
    await photograph(client, 'renew-dialog-with-code');
    await client.getByTestId('renew-confirm').click();
    balance -= PLAN.promoPrice;
    await waitForBalance(client, balance);
    await context.close();

    // The console: three uses of the code and their revenue, and two of the batch's three codes redeemed.
    assert.deepEqual(await promoCodeFigures(admin), { uses: '3 / 5', revenue: 3 * PLAN.promoPrice });
    await admin.goto(`${server.baseUrl}/admin/vouchers`);
    const batch = admin.getByTestId(`voucher-batch-${voucherBatchId}`);
    await batch.waitFor();
    assert.equal(
      dollarsIn((await admin.getByTestId('vouchers-outstanding-total').textContent()) ?? ''),
      VOUCHER.amount,
      'one code is still owed',
    );
    const csv = await downloadCodes(admin, batch);
    assert.deepEqual(
      csv.map((line) => line.redeemedBy),
      ['offers.he@example.com', 'offers.en@example.com', ''],
      'the CSV names who redeemed each code',
    );

    // Bulk add-days (docs/adr/0090-bulk-operations.md): the admin, in Hebrew, adds two days to every active
    // subscription: the count follows the filters, the confirm names it, the progress runs to the result, and the
    // English client's subscription ends two days later.
    const endBefore = await subscriptionEnd(subscriptionId);
    await admin.getByTestId('menu-bulk-operations').click();
    await admin.getByTestId('bulk-reason').fill('תקלה במסע');
    await admin.getByTestId('bulk-days').fill('2');
    const matched = Number(
      /\d+/.exec((await admin.getByTestId('bulk-preview-result').locator('h2').textContent()) ?? '')?.[0],
    );
    assert.ok(matched >= 2, `the preview counts the active subscriptions, both clients' among them (${matched})`);
    await admin.getByTestId('bulk-confirm').click();
    await admin.getByTestId('bulk-progress').filter({ hasText: 'הושלם' }).waitFor({ timeout: ACTIVE_TIMEOUT_MS });
    assert.match(
      (await admin.getByTestId('bulk-counts').textContent()) ?? '',
      new RegExp(`^${matched} .* 0 .* ${matched}$`),
    );
    assert.equal(
      Date.parse(await subscriptionEnd(subscriptionId)) - Date.parse(endBefore),
      2 * 24 * 60 * 60 * 1000,
      "the English client's subscription ends two days later",
    );
    await photograph(admin, 'console-bulk-done');
    await admin.getByTestId('menu-vouchers').click();

    // The console's new screens in the other language.
    await admin.getByTestId('lang-toggle').click();
    await admin.waitForFunction(() => document.documentElement.lang === 'en');
    await batch.waitFor();
    await photograph(admin, 'console-vouchers');
    await admin.getByTestId('menu-promo-codes').click();
    await admin.getByTestId('promo-code-row').first().waitFor();
    await photograph(admin, 'console-promo-codes');
    // The bulk page in English with the subscriptions' further filters, and the past batch below.
    await admin.getByTestId('menu-bulk-operations').click();
    await admin.getByTestId('bulk-endDateFrom').fill(new Date().toISOString().slice(0, 10));
    await admin.getByTestId('bulk-preview-result').waitFor();
    await admin.getByTestId('bulk-past').waitFor();
    await photograph(admin, 'console-bulk-filters');

    // The admin creates a code and a voucher batch in the English console too; this batch is given away.
    await admin.goto(`${server.baseUrl}/admin/promo-codes`);
    await admin.getByTestId('promo-codes-create').click();
    const codeDialog = admin.getByTestId('promo-code-create-dialog');
    await codeDialog.getByTestId('promo-code-code').fill('journey-en');
    await codeDialog.getByTestId('promo-code-value').fill('10');
    await codeDialog.getByRole('textbox', { name: 'Uses allowed (optional)' }).fill('3');
    await admin.getByTestId('promo-code-save').click();
    await codeDialog.waitFor({ state: 'hidden' });
    const englishCode = admin.getByTestId('promo-code-row').filter({ hasText: 'JOURNEY-EN' });
    await englishCode.waitFor();
    assert.equal((await englishCode.getByTestId('promo-code-uses').textContent())?.trim(), '0 / 3');
    assert.equal((await englishCode.getByTestId('promo-code-discount').textContent())?.trim(), '10%');
    await admin.getByTestId('menu-vouchers').click();
    await admin.getByTestId('vouchers-generate-open').click();
    await admin.getByTestId('vouchers-label').fill('Journey gifts');
    await admin.getByTestId('vouchers-count').fill('1');
    await admin.getByTestId('vouchers-amount').fill('5');
    await admin.getByTestId('vouchers-generate').click();
    await admin.getByTestId('vouchers-codes').locator('code').first().waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    const gifts = admin.locator('[data-testid^="voucher-batch-"]').filter({ hasText: 'Journey gifts' });
    await gifts.waitFor();
    await gifts.getByRole('button', { name: 'Record as given away' }).click();
    await admin.getByTestId('vouchers-fund-comment').fill('Prizes at the journey fair');
    await admin.getByTestId('vouchers-fund').click();
    await gifts.getByRole('cell', { name: 'Given away', exact: true }).waitFor();
    assert.equal(
      dollarsIn((await admin.getByTestId('vouchers-outstanding-total').textContent()) ?? ''),
      VOUCHER.amount + 5,
      'the given batch is owed beside the sold one’s last code',
    );

    // The admin adds two days again, in English this time, and reads the batch's result in its CSV too.
    const endBeforeEnglish = await subscriptionEnd(subscriptionId);
    await admin.goto(`${server.baseUrl}/admin/bulk-operations`);
    await admin.getByTestId('bulk-reason').fill('Journey outage');
    await admin.getByTestId('bulk-days').fill('2');
    const preview = admin.getByTestId('bulk-preview-result').locator('h2');
    await preview.waitFor();
    const matchedEnglish = Number(/\d+/.exec((await preview.textContent()) ?? '')?.[0]);
    assert.ok(matchedEnglish >= 2, `the preview counts the active subscriptions in English too (${matchedEnglish})`);
    assert.match((await admin.getByTestId('bulk-confirm').textContent()) ?? '', new RegExp(`${matchedEnglish}`));
    await admin.getByTestId('bulk-confirm').click();
    const progress = admin.getByTestId('bulk-progress');
    await progress.filter({ hasText: 'Completed' }).waitFor({ timeout: ACTIVE_TIMEOUT_MS });
    assert.match(
      (await admin.getByTestId('bulk-counts').textContent()) ?? '',
      new RegExp(`^${matchedEnglish} done, 0 failed, of ${matchedEnglish}$`),
    );
    assert.equal(
      Date.parse(await subscriptionEnd(subscriptionId)) - Date.parse(endBeforeEnglish),
      2 * 24 * 60 * 60 * 1000,
      "the English client's subscription ends two more days later",
    );
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      progress.getByRole('button', { name: 'Results (CSV)' }).click(),
    ]);
    const results = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    assert.ok(
      results.split(/\r?\n/).some((line) => line.startsWith(`${subscriptionId},offers.en@example.com,DONE`)),
      `the results CSV says the English client's subscription was done:\n${results}`,
    );
    assert.deepEqual(screenProblems, [], `\n${screenProblems.join('\n')}`);
  });
});
