import type { Dictionaries, Page, Subscription } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, adminToken, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';

const CONNECT = {
  siteUrl: 'https://watch.example/start',
  iosAppUrl: 'https://apps.apple.com/app/id000000001',
  androidAppUrl: 'https://play.google.com/store/apps/details?id=example.watch',
};

/** A subscription's detail tells its owner how to reach the service, from the server's configuration. */
describe('GET /subscriptions/{id}: how to connect', () => {
  let testApp: TestApp;
  let client: ActiveUser;
  let subscriptionId: string;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: {
        STREAMING_SITE_URL: CONNECT.siteUrl,
        STREAMING_IOS_APP_URL: CONNECT.iosAppUrl,
        STREAMING_ANDROID_APP_URL: CONNECT.androidAppUrl,
      },
    });
    const admin = await adminToken(testApp);
    client = await createActiveUser(testApp);
    const plan = await testApp.http
      .post('/api/payment-plans')
      .set('Authorization', `Bearer ${admin}`)
      .send({
        name: `Gold ${randomUUID().slice(0, 8)}`,
        durationInMonths: 1,
        price: 10,
        currency: 'USD',
        isRecurrent: true,
        description: 'Every channel',
        features: ['HD'],
        status: 'ACTIVE',
      });
    await testApp.http
      .post('/api/payments')
      .set('Authorization', `Bearer ${admin}`)
      .send({ userUuid: client.userUuid, amount: 20, action: 'DEPOSIT', comment: 'fixture deposit' });
    const bought = await testApp.http
      .post(`/api/subscriptions/balance/payment-plans/${plan.body.id}`)
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({ login: `tv.${randomUUID().slice(0, 8)}`, password: 'pass-1234' });
    expect(bought.status).toBe(201);
    subscriptionId = bought.body.id as string;
  });

  afterAll(async () => {
    await testApp.close();
  });

  it("answers the service's site and app links on the detail, and not in the list", async () => {
    const detail = await testApp.http
      .get(`/api/subscriptions/${subscriptionId}`)
      .set('Authorization', `Bearer ${client.accessToken}`);
    expect(detail.status).toBe(200);
    expect(detail.headers['cache-control']).toContain('no-store');
    expect((detail.body as Subscription).connect).toEqual(CONNECT);

    const list = await testApp.http
      .post('/api/subscriptions/search')
      .set('Authorization', `Bearer ${client.accessToken}`)
      .send({});
    expect(list.status).toBe(200);
    const [row] = (list.body as Page<Subscription>).content;
    expect(row.id).toBe(subscriptionId);
    expect(row.connect).toBeUndefined();
  });

  it('publishes the same site to anyone with the dictionaries, for the portal to link from its sidebar', async () => {
    const response = await testApp.http.get('/api/dictionaries');
    expect(response.status).toBe(200);
    expect((response.body as Dictionaries).streamingSiteUrl).toBe(CONNECT.siteUrl);
  });

  it("answers another client's subscription like a missing one", async () => {
    const other = await createActiveUser(testApp);
    const response = await testApp.http
      .get(`/api/subscriptions/${subscriptionId}`)
      .set('Authorization', `Bearer ${other.accessToken}`);
    expect(response.status).toBe(404);
  });
});
