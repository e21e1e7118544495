import type { CryptoDepositOptions, Payment } from '@kupa/proto';
import { CashierSettings, ipnSignature, IPN_SIGNATURE_HEADER } from '../../../../platform/cashier';
import { ManualClock } from '../../../../platform/clock';
import { Schedules } from '../../../../platform/jobs';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { sandboxAct, sandboxInvoiceId, sandboxInvoicePath } from '../../../../test-support/sandbox-cashier';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf, expectReadModelsToEqualReplay } from '../../ledger.fixtures';
import { CASHIER_JANITOR_SWEEP } from '../../processors/cashier-janitor/cashier-janitor.sweep';
import { expectLedgerVerifyOk } from '../../../../test-support/ledger-verification';

const WINDOW_MINUTES = 30;

describe('Crypto deposits through the sandbox cashier (NOWPayments API, IPN, janitor)', () => {
  let testApp: TestApp;
  let clock: ManualClock;
  let admin: string;
  let client: ActiveUser;

  beforeAll(async () => {
    clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
    testApp = await startTestApp({
      clock,
      env: {
        CASHIER_DEPOSIT_MIN: '10',
        CASHIER_DEPOSIT_MAX: '1000',
        CASHIER_PENDING_TIMEOUT_MINUTES: String(WINDOW_MINUTES),
        // The janitor runs when the spec says so (`sweepNow`), not on its own timer.
        CASHIER_JANITOR_INTERVAL_MS: '3600000',
      },
    });
    // The sandbox is reached over real HTTP on the port the test app listens on, as in production.
    admin = await adminToken(testApp);
    client = await createActiveUser(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const deposit = (user: ActiveUser, body: object) =>
    testApp.http.post('/api/payments/crypto/deposit').set('Authorization', `Bearer ${user.accessToken}`).send(body);

  const openDeposit = async (user: ActiveUser, amount: number, method = 'CRYPTO_USDT_TRC20') => {
    const response = await deposit(user, { amount, method });
    expect(response.status).toBe(201);
    const { paymentId, invoiceUrl } = response.body as { paymentId: number; invoiceUrl: string };
    const invoiceId = sandboxInvoiceId(invoiceUrl);
    return { paymentId, invoiceUrl, invoiceId };
  };

  const act = (invoiceId: string, action: string, body: object = {}) => sandboxAct(testApp, invoiceId, action, body);

  const paymentOf = async (paymentId: number, token = admin): Promise<Payment> => {
    const response = await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${token}`);
    expect(response.status).toBe(200);
    return response.body as Payment;
  };

  const signed = (body: object) => ({
    body,
    signature: ipnSignature(body, testApp.app.get(CashierSettings).ipnSecret),
  });

  const postIpn = (body: object, signature: string | null) => {
    let call = testApp.http.post('/api/payments/crypto/ipn');
    if (signature !== null) call = call.set(IPN_SIGNATURE_HEADER, signature);
    return call.send(body);
  };

  /** The payment exactly as the sandbox's NOWPayments API tells it now: what a real IPN would carry. */
  const providerPayment = async (providerPaymentId: string): Promise<Record<string, unknown>> => {
    const settings = testApp.app.get(CashierSettings);
    const response = await fetch(`${settings.apiBase()}/v1/payment/${providerPaymentId}`, {
      headers: { 'x-api-key': settings.apiKey },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };

  it('offers the configured limits and the seven crypto methods', async () => {
    const response = await testApp.http
      .get('/api/payments/crypto/options')
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(response.status).toBe(200);
    expect(response.body as CryptoDepositOptions).toEqual({
      minAmount: 10,
      maxAmount: 1000,
      methods: [
        'CRYPTO_USDT_TRC20',
        'CRYPTO_USDT_ERC20',
        'CRYPTO_USDC_ERC20',
        'CRYPTO_DAI_ERC20',
        'CRYPTO_BTC',
        'CRYPTO_ETH',
        'CRYPTO_LTC',
      ],
      provider: 'SANDBOX',
    });
  });

  it('refuses amounts outside the limits, unknown methods, and staff', async () => {
    const low = await deposit(client, { amount: 9.99, method: 'CRYPTO_BTC' });
    expect(low.status).toBe(400);
    expect(low.body.error).toBe('error.deposit.amount.out.of.range');
    expect(low.body.details).toEqual({ minAmount: 10, maxAmount: 1000 });
    expect((await deposit(client, { amount: 1000.01, method: 'CRYPTO_BTC' })).body.error).toBe(
      'error.deposit.amount.out.of.range',
    );
    expect((await deposit(client, { amount: 50, method: 'MANUAL_TRANSFER' })).status).toBe(400);
    expect((await deposit(client, { amount: 50.001, method: 'CRYPTO_BTC' })).status).toBe(400);
    const staff = await testApp.http
      .post('/api/payments/crypto/deposit')
      .set('Authorization', `Bearer ${admin}`)
      .send({ amount: 50, method: 'CRYPTO_BTC' });
    expect(staff.status).toBe(403);
  });

  it('opens a PENDING cashier deposit, serves the invoice page in both languages, and credits on Pay', async () => {
    const user = await createActiveUser(testApp);
    const { paymentId, invoiceUrl, invoiceId } = await openDeposit(user, 50);
    expect(invoiceUrl).toBe(`http://kupa.test${sandboxInvoicePath(testApp, invoiceId)}`);
    const pending = await paymentOf(paymentId, user.accessToken);
    expect(pending).toMatchObject({
      status: 'PENDING',
      type: 'DEPOSIT',
      aggregator: 'CASHIER',
      method: 'CRYPTO_USDT_TRC20',
      amount: 50,
      cashier: {
        provider: 'SANDBOX',
        invoiceId,
        invoiceUrl,
        providerPaymentId: null,
        providerStatus: null,
        payCurrency: 'usdttrc20',
        amountAsked: 50,
        amountReceived: 0,
      },
    });
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);

    const page = new URL(invoiceUrl);
    const hebrew = await testApp.rawHttp.get(`${page.pathname}${page.search}`);
    expect(hebrew.status).toBe(200);
    expect(hebrew.headers['content-type']).toMatch(/text\/html/);
    expect(hebrew.text).toContain('dir="rtl"');
    expect(hebrew.text).toContain('שלם חלק');
    const english = await testApp.rawHttp.get(`${page.pathname}${page.search}&lang=en`);
    expect(english.text).toContain('dir="ltr"');
    for (const button of ['Pay', 'Pay part', 'Fail', 'Expire']) expect(english.text).toContain(`>${button}</button>`);

    // The page's form post, to the address its Pay button names, comes back to the page with the link's key.
    const payForm = /<form method="post" action="([^"]+)"><button type="submit" data-action="pay"/.exec(english.text);
    const payAction = (payForm?.[1] ?? '').replaceAll('&#38;', '&');
    expect(payAction).toBe(`${page.pathname}/pay?lang=en&${page.search.slice(1)}`);
    const form = await testApp.rawHttp.post(payAction).set('Accept', 'text/html');
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe(`${page.pathname}?lang=en&${page.search.slice(1)}`);

    const paid = await paymentOf(paymentId, user.accessToken);
    expect(paid).toMatchObject({
      status: 'SUCCESS',
      amount: 50,
      cashier: { providerStatus: 'finished', amountAsked: 50, amountReceived: 50 },
    });
    expect(paid.cashier?.providerPaymentId).toMatch(/^\d{10}$/);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(5000);
    const entries: Array<{ account: string; amount_minor: string; event_type: string }> =
      await testApp.dataSource.query(
        'SELECT account, amount_minor::text, event_type FROM ledger_entries WHERE payment_id = $1 ORDER BY entry_id',
        [paymentId],
      );
    // Sandbox money comes from its own account, so no total of real money includes it (issue 27).
    expect(entries).toEqual([
      { account: 'world:sandbox-cashier', amount_minor: '-5000', event_type: 'CashierDepositCredited' },
      { account: `user:${user.userUuid}`, amount_minor: '5000', event_type: 'CashierDepositCredited' },
    ]);
    // A paid invoice takes no more buttons.
    const again = await act(invoiceId, 'pay');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('error.cashier.invoice.closed');
  });

  it('credits nothing for a forged, missing or replayed-with-changes signature', async () => {
    const user = await createActiveUser(testApp);
    const { paymentId, invoiceId } = await openDeposit(user, 40);
    const partial = await act(invoiceId, 'partial');
    expect(partial.status).toBe(200);
    const genuine = await providerPayment(partial.body.paymentId as string);
    const before = await balanceMinorOf(testApp, user.userUuid);

    const forged = { ...genuine, payment_status: 'finished', actually_paid: genuine.pay_amount };
    const forgedResponse = await postIpn(forged, signed(genuine).signature);
    expect(forgedResponse.status).toBe(401);
    expect(forgedResponse.body.error).toBe('error.cashier.signature.invalid');
    expect((await postIpn(genuine, null)).status).toBe(401);
    expect((await postIpn(genuine, 'ab'.repeat(64))).status).toBe(401);
    expect((await postIpn(genuine, 'not hex')).status).toBe(401);
    const wrongSecret = ipnSignature(genuine, 'someone-else');
    expect((await postIpn(genuine, wrongSecret)).status).toBe(401);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(before);

    // Even a correctly signed body that lies about the money is not believed: the provider's API is asked.
    const lie = signed(forged);
    const lied = await postIpn(lie.body, lie.signature);
    expect(lied.status).toBe(200);
    expect(lied.body).toEqual({ paymentId, status: 'SUCCESS', credited: 0 });
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(before);
    expect((await paymentOf(paymentId)).cashier?.amountReceived).toBe(20);

    // A signed notification naming a payment the provider does not know changes nothing either, and is refused
    // for good (404), not as an outage (503) that the provider would retry forever.
    const unknown = signed({ ...genuine, payment_id: 1234567890 });
    const unknownResponse = await postIpn(unknown.body, unknown.signature);
    expect(unknownResponse.status).toBe(404);
    expect(unknownResponse.body.error).toBe('error.cashier.payment.not.found');
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(before);
  });

  it('credits once for the same IPN five times, in parallel and out of order; partial then the rest', async () => {
    const user = await createActiveUser(testApp);
    const { paymentId, invoiceId } = await openDeposit(user, 100, 'CRYPTO_BTC');
    const partial = await act(invoiceId, 'partial');
    expect(partial.body).toMatchObject({ status: 'partially_paid', actuallyPaid: '0.001', ipnStatuses: [200] });
    const providerPaymentId = partial.body.paymentId as string;
    const partialIpn = signed(await providerPayment(providerPaymentId));
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(5000);
    const afterPartial = await paymentOf(paymentId);
    expect(afterPartial).toMatchObject({
      status: 'SUCCESS',
      amount: 50,
      cashier: { providerStatus: 'partially_paid', amountAsked: 100, amountReceived: 50, providerPaymentId },
    });

    const repeats = await Promise.all(Array.from({ length: 5 }, () => postIpn(partialIpn.body, partialIpn.signature)));
    expect(repeats.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(repeats.map((response) => response.body.credited)).toEqual([0, 0, 0, 0, 0]);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(5000);

    const paid = await act(invoiceId, 'pay');
    expect(paid.body).toMatchObject({ status: 'finished', actuallyPaid: '0.002', ipnStatuses: [200, 200] });
    const finishedIpn = signed(await providerPayment(providerPaymentId));
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(10_000);

    // The old "partially_paid" notification arriving late, and the "finished" one again, five times each.
    const late = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 === 0
          ? postIpn(partialIpn.body, partialIpn.signature)
          : postIpn(finishedIpn.body, finishedIpn.signature),
      ),
    );
    expect(late.every((response) => response.status === 200 && response.body.credited === 0)).toBe(true);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(10_000);
    const credits: Array<{ count: string; total: string }> = await testApp.dataSource.query(
      `SELECT count(*)::text AS count, sum(amount_minor)::text AS total FROM ledger_entries
        WHERE payment_id = $1 AND account = $2`,
      [paymentId, `user:${user.userUuid}`],
    );
    expect(credits).toEqual([{ count: '2', total: '10000' }]);
    expect(await paymentOf(paymentId)).toMatchObject({
      status: 'SUCCESS',
      amount: 100,
      cashier: { providerStatus: 'finished', amountAsked: 100, amountReceived: 100 },
    });
  });

  it('credits an over-payment in full and says so on the payment', async () => {
    const user = await createActiveUser(testApp);
    const { paymentId, invoiceId } = await openDeposit(user, 80, 'CRYPTO_ETH');
    // 80 dollars at the sandbox's 2500 a coin is 0.032 ETH; 0.0333 arrives.
    const paid = await act(invoiceId, 'pay', { actuallyPaid: '0.0333' });
    expect(paid.status).toBe(200);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(8325);
    expect(await paymentOf(paymentId, user.accessToken)).toMatchObject({
      status: 'SUCCESS',
      amount: 83.25,
      cashier: { amountAsked: 80, amountReceived: 83.25, payCurrency: 'eth' },
    });
  });

  it('holds for staff, uncredited, a payment that reports more than the per-payment maximum', async () => {
    const user = await createActiveUser(testApp);
    const { paymentId, invoiceId } = await openDeposit(user, 800, 'CRYPTO_ETH');
    // 800 dollars at the sandbox's 2500 a coin is 0.32 ETH; 0.6 ETH (1500 dollars, within the sandbox's bound on an
    // over-payment) arrives, above the 1000 maximum.
    const paid = await act(invoiceId, 'pay', { actuallyPaid: '0.6' });
    expect(paid.status).toBe(200);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
    expect(await paymentOf(paymentId)).toMatchObject({
      status: 'REVIEW',
      amount: 800,
      cashier: { amountAsked: 800, amountReceived: 0, amountHeld: 1500 },
    });
    // The event log says what was held; the same notification signed again credits nothing.
    const reports: Array<{ data: { creditedMinor: number; heldForReviewMinor?: number } }> =
      await testApp.dataSource.query(
        `SELECT data FROM events WHERE type = 'CashierPaymentReported' AND data->>'paymentId' = $1
          ORDER BY global_position`,
        [String(paymentId)],
      );
    expect(reports.map((report) => report.data.creditedMinor)).toEqual(reports.map(() => 0));
    expect(reports.at(-1)?.data).toMatchObject({ creditedMinor: 0, heldForReviewMinor: 150_000 });
    const again = signed(await providerPayment(paid.body.paymentId as string));
    const repeated = await postIpn(again.body, again.signature);
    expect(repeated.status).toBe(200);
    expect(repeated.body.credited).toBe(0);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
    // Staff see it in the list and close it without money.
    const listed = await testApp.http
      .post(`/api/payments/search/${user.userUuid}`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ statuses: ['REVIEW'] });
    expect(listed.body.content).toMatchObject([{ paymentId, cashier: { amountHeld: 1500 } }]);
    const closed = await testApp.http
      .put(`/api/payments/${paymentId}/status`)
      .set('Authorization', `Bearer ${admin}`)
      .send({ status: 'REJECTED' });
    expect([closed.status, closed.body.status]).toEqual([200, 'REJECTED']);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
  });

  it('maps failed and expired without money to FAILED and TIMEOUT, crediting nothing', async () => {
    const user = await createActiveUser(testApp);
    const failed = await openDeposit(user, 20);
    expect((await act(failed.invoiceId, 'fail')).body.status).toBe('failed');
    expect(await paymentOf(failed.paymentId)).toMatchObject({
      status: 'FAILED',
      cashier: { providerStatus: 'failed', amountReceived: 0 },
    });
    const expired = await openDeposit(user, 20);
    expect((await act(expired.invoiceId, 'expire')).body.status).toBe('expired');
    expect(await paymentOf(expired.paymentId)).toMatchObject({
      status: 'TIMEOUT',
      cashier: { providerStatus: 'expired' },
    });
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
    expect((await act('99999', 'pay')).status).toBe(404);
    expect((await act(failed.invoiceId, 'dance')).status).toBe(400);
  });

  it("refuses to pay an invoice anonymously, with a wrong key, another invoice's or another's session (issue 27)", async () => {
    const user = await createActiveUser(testApp);
    const stranger = await createActiveUser(testApp);
    const { paymentId, invoiceId } = await openDeposit(user, 50);
    const other = await openDeposit(user, 60);
    const otherKey = new URL(other.invoiceUrl).searchParams.get('signature') as string;
    // The probe's request: an anonymous POST naming the invoice and a fortune, without the link's key.
    const attempts = [
      testApp.http.post(`/api/sandbox/cashier/invoices/${invoiceId}/pay`).send({ actuallyPaid: '99999999999' }),
      testApp.http.post(`/api/sandbox/cashier/invoices/${invoiceId}/pay`).send({}),
      testApp.http.post(`/api/sandbox/cashier/invoices/${invoiceId}/pay?signature=${'A'.repeat(43)}`).send({}),
      testApp.http.post(`/api/sandbox/cashier/invoices/${invoiceId}/pay?signature=${otherKey}`).send({}),
      testApp.http.post(`/api/sandbox/cashier/invoices/${invoiceId}/partial?signature=`).send({}),
      testApp.http
        .post(`/api/sandbox/cashier/invoices/${invoiceId}/pay`)
        .set('Authorization', `Bearer ${admin}`)
        .send({}),
      testApp.http
        .post(`/api/sandbox/cashier/invoices/${invoiceId}/pay`)
        .set('Authorization', `Bearer ${stranger.accessToken}`)
        .send({}),
      testApp.http
        .post(`/api/sandbox/cashier/invoices/${invoiceId}/pay`)
        .set('Authorization', 'Bearer not-a-token')
        .send({}),
      testApp.rawHttp.get(`/api/sandbox/cashier/invoices/${invoiceId}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('error.cashier.invoice.not.found');
    }
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
    expect((await paymentOf(paymentId)).status).toBe('PENDING');
    // The owner's own session pays without the link; the link pays without a session (the other invoice).
    const owner = await testApp.http
      .post(`/api/sandbox/cashier/invoices/${invoiceId}/pay`)
      .set('Authorization', `Bearer ${user.accessToken}`)
      .send({});
    expect(owner.status).toBe(200);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(5000);
    const link = new URL(other.invoiceUrl);
    expect((await testApp.http.post(`${link.pathname}/pay${link.search}`).send({})).status).toBe(200);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(11_000);
  });

  it('pays a sandbox invoice only between 1 % and 200 % of its amount (issue 27)', async () => {
    const user = await createActiveUser(testApp);
    // 50 dollars at the sandbox's 50 000 a coin is 0.001 BTC.
    const { paymentId, invoiceId } = await openDeposit(user, 50, 'CRYPTO_BTC');
    for (const actuallyPaid of ['99999999999', '0.00200001', '0.00000999']) {
      for (const action of ['pay', 'partial']) {
        const refused = await act(invoiceId, action, { actuallyPaid });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toBe('error.cashier.sandbox.amount.out.of.range');
        expect(refused.body.details).toEqual({ minPercent: 1, maxPercent: 200 });
      }
    }
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(0);
    expect((await paymentOf(paymentId)).cashier?.providerStatus).toBeNull();
    const most = await act(invoiceId, 'pay', { actuallyPaid: '0.002' });
    expect(most.status).toBe(200);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(10_000);
  });

  it('answers a double click on Pay once with the payment and otherwise 409, crediting once (issue 27)', async () => {
    const user = await createActiveUser(testApp);
    const { paymentId, invoiceId } = await openDeposit(user, 25);
    const clicks = await Promise.all(Array.from({ length: 6 }, () => act(invoiceId, 'pay')));
    const statuses = clicks.map((response) => response.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    for (const response of clicks.filter((click) => click.status === 409))
      expect(response.body.error).toBe('error.cashier.invoice.closed');
    const paid = clicks.filter((click) => click.status === 200).map((click) => click.body.paymentId as string);
    expect(new Set(paid).size).toBe(1);
    expect((await act(invoiceId, 'pay')).status).toBe(409);
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(2500);
    expect(await paymentOf(paymentId)).toMatchObject({ status: 'SUCCESS', amount: 25 });
  });

  it('times PENDING deposits out with a moved clock, and a late IPN still credits what arrived', async () => {
    const user = await createActiveUser(testApp);
    const schedules = testApp.app.get(Schedules);
    const unreported = await openDeposit(user, 30);
    const waiting = await openDeposit(user, 60, 'CRYPTO_LTC');
    // A payment the provider reported as confirming, whose "finished" notification was then lost: the janitor asks
    // the provider before timing anything out.
    const confirming = await openDeposit(user, 25);
    await testApp.dataSource.query(
      `INSERT INTO sandbox_cashier_payments (payment_id, invoice_id, status, actually_paid, created_at, updated_at)
       VALUES ('5550000001', $1, 'confirming', '0', now(), now())`,
      [confirming.invoiceId],
    );
    const seen = signed(await providerPayment('5550000001'));
    expect((await postIpn(seen.body, seen.signature)).body).toEqual({
      paymentId: confirming.paymentId,
      status: 'PENDING',
      credited: 0,
    });
    expect((await paymentOf(confirming.paymentId)).cashier?.providerStatus).toBe('confirming');
    await testApp.dataSource.query(
      `UPDATE sandbox_cashier_payments SET status = 'finished', actually_paid = '25' WHERE payment_id = '5550000001'`,
    );

    clock.advanceMs((WINDOW_MINUTES - 1) * 60_000);
    await schedules.sweepNow(CASHIER_JANITOR_SWEEP);
    expect((await paymentOf(unreported.paymentId)).status).toBe('PENDING');

    clock.advanceMs(2 * 60_000);
    expect(await schedules.sweepNow(CASHIER_JANITOR_SWEEP)).toBeGreaterThanOrEqual(3);
    expect(await paymentOf(unreported.paymentId)).toMatchObject({ status: 'TIMEOUT', cashier: { amountReceived: 0 } });
    expect((await paymentOf(waiting.paymentId)).status).toBe('TIMEOUT');
    expect(await paymentOf(confirming.paymentId)).toMatchObject({
      status: 'SUCCESS',
      cashier: { providerStatus: 'finished', amountReceived: 25 },
    });
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(2500);
    expect(await schedules.sweepNow(CASHIER_JANITOR_SWEEP)).toBe(0);

    // The client pays after all: the money is recorded, never lost.
    const late = await act(waiting.invoiceId, 'partial');
    expect(late.body.ipnStatuses).toEqual([200]);
    expect(await paymentOf(waiting.paymentId)).toMatchObject({
      status: 'SUCCESS',
      amount: 30,
      cashier: { providerStatus: 'partially_paid', amountAsked: 60, amountReceived: 30 },
    });
    expect(await balanceMinorOf(testApp, user.userUuid)).toBe(5500);
  });

  it("an ambassador's deposit in parts earns the bonus of the total: booked with the first part, raised with the rest", async () => {
    const ambassador = await createActiveUser(testApp, { role: 'AMBASSADOR' });
    const { paymentId, invoiceId } = await openDeposit(ambassador, 300, 'CRYPTO_BTC');
    const partial = await act(invoiceId, 'partial');
    expect(partial.body).toMatchObject({ status: 'partially_paid', ipnStatuses: [200] });
    // 150 of 300 arrived: 5 % of it, 7.50, booked with the credit as the deposit's own bonus payment.
    const afterPartial = await paymentOf(paymentId, ambassador.accessToken);
    expect(afterPartial).toMatchObject({ status: 'SUCCESS', amount: 150, bonusPaymentId: expect.any(Number) });
    const bonusPaymentId = afterPartial.bonusPaymentId as number;
    expect(await paymentOf(bonusPaymentId, ambassador.accessToken)).toMatchObject({
      type: 'AMBASSADOR_BONUS',
      status: 'SUCCESS',
      aggregator: 'INTERNAL',
      method: 'BALANCE',
      amount: 7.5,
      bonusForPaymentId: paymentId,
    });
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(15_750);

    // The rest: 300 in all reaches the 10 % tier, so the same bonus payment grows to 30 (22.50 more).
    await act(invoiceId, 'pay');
    expect(await paymentOf(paymentId)).toMatchObject({ amount: 300, bonusPaymentId });
    expect(await paymentOf(bonusPaymentId)).toMatchObject({ amount: 30, bonusForPaymentId: paymentId });
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(33_000);
    const finishedIpn = signed(await providerPayment(partial.body.paymentId as string));
    const repeats = await Promise.all(
      Array.from({ length: 5 }, () => postIpn(finishedIpn.body, finishedIpn.signature)),
    );
    expect(repeats.map((response) => response.body.credited)).toEqual([0, 0, 0, 0, 0]);
    expect(await balanceMinorOf(testApp, ambassador.userUuid)).toBe(33_000);
    const bonusEntries: Array<{ amount_minor: string }> = await testApp.dataSource.query(
      `SELECT amount_minor::text FROM ledger_entries WHERE payment_id = $1 AND account = $2 ORDER BY entry_id`,
      [bonusPaymentId, `user:${ambassador.userUuid}`],
    );
    expect(bonusEntries).toEqual([{ amount_minor: '750' }, { amount_minor: '2250' }]);
    const bonuses: Array<{ count: string }> = await testApp.dataSource.query(
      `SELECT count(*)::text FROM payments WHERE user_uuid = $1 AND type = 'AMBASSADOR_BONUS'`,
      [ambassador.userUuid],
    );
    expect(bonuses).toEqual([{ count: '1' }]);

    // A client's crypto deposit earns none.
    const plainClient = await createActiveUser(testApp);
    const plain = await openDeposit(plainClient, 300);
    await act(plain.invoiceId, 'pay');
    expect((await paymentOf(plain.paymentId)).bonusPaymentId).toBeNull();
    expect(await balanceMinorOf(testApp, plainClient.userUuid)).toBe(30_000);
  });

  it('keeps every read model equal to the replay and passes `kupa ledger verify`', async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
  });
});

describe('The sandbox cashier is off when CASHIER_URL is set', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: {
        CASHIER_URL: 'http://127.0.0.1:9/nowpayments',
        CASHIER_API_KEY: 'real-key',
        CASHIER_IPN_SECRET: 'real-ipn-secret',
      },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 404 on every sandbox route and 503 when the provider cannot be reached', async () => {
    const page = await testApp.http.get('/api/sandbox/cashier/invoices/1234567890');
    expect(page.status).toBe(404);
    expect(page.body.error).toBe('error.cashier.sandbox.off');
    expect((await testApp.http.post('/api/sandbox/cashier/invoices/1234567890/pay').send({})).status).toBe(404);
    const api = await testApp.rawHttp.post('/api/sandbox/cashier/v1/invoice').set('x-api-key', 'real-key').send({});
    expect(api.status).toBe(404);
    const client = await createActiveUser(testApp);
    const options = await testApp.http
      .get('/api/payments/crypto/options')
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(options.body.provider).toBe('NOWPAYMENTS');
    const deposit = await testApp.http
      .post('/api/payments/crypto/deposit')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ amount: 50, method: 'CRYPTO_BTC' });
    expect(deposit.status).toBe(503);
    expect(deposit.body.error).toBe('error.cashier.unavailable');
    const payments: Array<{ count: string }> = await testApp.dataSource.query('SELECT count(*)::text FROM payments');
    expect(payments[0].count).toBe('0');
    // The configured IPN secret is the one signatures are checked against.
    const body = { payment_id: 1, payment_status: 'finished' };
    const wrong = await testApp.http
      .post('/api/payments/crypto/ipn')
      .set(IPN_SIGNATURE_HEADER, ipnSignature(body, testApp.app.get(CashierSettings).apiKey))
      .send(body);
    expect(wrong.status).toBe(401);
    const right = await testApp.http
      .post('/api/payments/crypto/ipn')
      .set(IPN_SIGNATURE_HEADER, ipnSignature(body, 'real-ipn-secret'))
      .send(body);
    expect(right.status).toBe(503);
  });
});

describe('A real deployment without CASHIER_URL has no cashier at all (issue 27)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // DATABASE_URL set makes it a real deployment; the test app still runs on its own fresh database.
    testApp = await startTestApp({
      captureLogs: true,
      env: {
        DATABASE_URL: 'postgres://operator@db.example/kupa',
        PROVISIONING_URL: 'http://127.0.0.1:9',
        LOG_LEVEL: 'warn',
      },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('answers 503 error.cashier.unavailable for crypto top-up, says so in the dictionaries, serves no sandbox', async () => {
    const client = await createActiveUser(testApp);
    const deposit = await testApp.http
      .post('/api/payments/crypto/deposit')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ amount: 50, method: 'CRYPTO_USDT_TRC20' });
    expect(deposit.status).toBe(503);
    expect(deposit.body.error).toBe('error.cashier.unavailable');
    const options = await testApp.http
      .get('/api/payments/crypto/options')
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(options.status).toBe(503);
    expect(options.body.error).toBe('error.cashier.unavailable');
    const dictionaries = await testApp.http.get('/api/dictionaries');
    expect(dictionaries.body.cryptoDepositAvailable).toBe(false);
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(0);

    // The sandbox's routes do not exist, key or no key: nothing here can mint money.
    const settings = testApp.app.get(CashierSettings);
    const key = settings.invoiceLinkSignature('1234567890');
    for (const response of [
      await testApp.http.post(`/api/sandbox/cashier/invoices/1234567890/pay?signature=${key}`).send({}),
      await testApp.http.get(`/api/sandbox/cashier/invoices/1234567890?signature=${key}`),
      await testApp.rawHttp.post('/api/sandbox/cashier/v1/invoice').set('x-api-key', settings.apiKey).send({}),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error).toBe('error.cashier.sandbox.off');
    }
    // Nor the streaming simulator: a real deployment names its streaming service.
    const simulator = await testApp.http
      .get('/api/sandbox/streaming/v1/accounts/some.login')
      .set('Authorization', `Bearer ${testApp.config.provisioningToken}`);
    expect([simulator.status, simulator.body.error]).toEqual([404, 'error.entity.not.found']);
    expect(testApp.logLines.join('\n')).not.toMatch(/SANDBOX CASHIER ON|STREAMING SIMULATOR ON/);
  });
});

describe('KUPA_SANDBOX=1 on a real deployment runs the sandbox cashier, and says so loudly (issue 27)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp({
      captureLogs: true,
      env: { DATABASE_URL: 'postgres://operator@db.example/kupa', KUPA_SANDBOX: '1', LOG_LEVEL: 'warn' },
    });
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('logs a warning naming each sandbox and why at start, and offers crypto deposits', async () => {
    const warnings = testApp.logLines
      .map((line) => JSON.parse(line) as { level: string; msg?: string; message?: string })
      .filter((line) => /SANDBOX CASHIER ON|STREAMING SIMULATOR ON/.test(line.msg ?? line.message ?? ''));
    expect(warnings).toHaveLength(2);
    for (const warning of warnings) {
      expect(warning.level).toBe('warn');
      expect(warning.msg ?? warning.message).toContain('KUPA_SANDBOX=1');
    }
    expect((await testApp.http.get('/api/dictionaries')).body.cryptoDepositAvailable).toBe(true);
    const client = await createActiveUser(testApp);
    const options = await testApp.http
      .get('/api/payments/crypto/options')
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(options.body.provider).toBe('SANDBOX');
  });
});
