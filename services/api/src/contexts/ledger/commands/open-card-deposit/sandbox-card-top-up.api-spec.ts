import type { CardCheckoutResponse, Payment } from '@kupa/proto';
import { adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf } from '../../ledger.fixtures';

/**
 * A card top-up through the sandbox card (docs/adr/0080-sandbox-card-checkout.md, docs/adr/0082-card-top-ups.md): the
 * demo's stand-in for Stripe serves top-ups as it serves purchases, and its money stays marked as the sandbox's.
 */
describe('Card top-ups through the sandbox card', () => {
  let testApp: TestApp;
  let admin: string;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { KUPA_SANDBOX: '1' } });
    admin = await adminToken(testApp);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('opens a sandbox checkout, and Pay on its test page credits the balance from world:sandbox-card', async () => {
    expect((await testApp.http.get('/api/dictionaries')).body.cardTopUpAvailable).toBe(true);
    const client = await createActiveUser(testApp);
    const opened = await testApp.http
      .post('/api/payments/card/deposit')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ amount: 30 });
    expect(opened.status).toBe(201);
    const { paymentId, url } = opened.body as CardCheckoutResponse;
    const page = new URL(url);
    const pay = await testApp.rawHttp
      .post(`${page.pathname}/pay${page.search}`)
      .set('Accept', 'text/html')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('');
    expect(pay.status).toBe(303);
    expect(pay.headers.location).toBe(`http://kupa.test/paymentSuccess?paymentId=${paymentId}`);

    const payment = (await testApp.http.get(`/api/payments/${paymentId}`).set('Authorization', `Bearer ${admin}`))
      .body as Payment;
    expect(payment).toMatchObject({
      status: 'SUCCESS',
      amount: 30,
      card: { provider: 'SANDBOX', providerStatus: 'paid', amountReceived: 30 },
      purchase: null,
    });
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(3000);
    const [credit]: Array<{ account: string }> = await testApp.dataSource.query(
      `SELECT account FROM ledger_entries WHERE payment_id = $1 AND event_type = 'CardDepositCredited'
        AND amount_minor < 0`,
      [paymentId],
    );
    expect(credit?.account).toBe('world:sandbox-card');
  });
});
