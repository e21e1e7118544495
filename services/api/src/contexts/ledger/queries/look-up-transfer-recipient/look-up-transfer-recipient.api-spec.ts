import { maskEmail } from '@kupa/proto';
import {
  type ActiveUser,
  adminToken,
  createActiveUser,
  FIXTURE_PASSWORD,
  uniqueEmail,
} from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { depositAs } from '../../ledger.fixtures';

const PER_ACCOUNT = 4;
const PER_ADDRESS = 6;

describe('POST /payments/transfer/recipient', () => {
  let testApp: TestApp;
  let sender: ActiveUser;
  let recipient: ActiveUser;
  let manager: ActiveUser;
  /** Each case speaks from its own client address, so the per-address counter of one never limits another. */
  let nextAddress = 10;
  const freshAddress = () => `198.51.100.${nextAddress++}`;

  beforeAll(async () => {
    testApp = await startTestApp({
      env: {
        RATE_LIMIT_RECIPIENT_LOOKUPS_PER_ACCOUNT: `${PER_ACCOUNT}/15m`,
        RATE_LIMIT_RECIPIENT_LOOKUPS_PER_ADDRESS: `${PER_ADDRESS}/15m`,
      },
    });
    [sender, recipient, manager] = await Promise.all([
      createActiveUser(testApp),
      createActiveUser(testApp, { role: 'AMBASSADOR', firstName: 'דנה', lastName: 'כהן' }),
      createActiveUser(testApp, { role: 'MANAGER' }),
    ]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const lookUp = (from: ActiveUser | null, body: unknown, address: string) => {
    let call = testApp.http.post('/api/payments/transfer/recipient').set('X-Forwarded-For', address);
    if (from) call = call.set('Authorization', `Bearer ${from.accessToken}`);
    return call.send(body as object);
  };

  const transfer = (from: ActiveUser, body: unknown, address: string) =>
    testApp.http
      .post('/api/payments/transfer')
      .set('X-Forwarded-For', address)
      .set('Authorization', `Bearer ${from.accessToken}`)
      .send(body as object);

  it('names the recipient as registered, with the e-mail masked, by e-mail (any case) or profile ID', async () => {
    const address = freshAddress();
    const expected = { fullName: 'דנה כהן', maskedEmail: maskEmail(recipient.email) };
    const byEmail = await lookUp(sender, { recipient: recipient.email.toUpperCase() }, address);
    expect([byEmail.status, byEmail.body]).toEqual([200, expected]);
    expect(expected.maskedEmail).toMatch(/^.\*\*\*@.\*\*\*\./);
    expect(JSON.stringify(byEmail.body)).not.toContain(recipient.email);
    const byProfile = await lookUp(sender, { recipient: recipient.user.profileId }, address);
    expect([byProfile.status, byProfile.body]).toEqual([200, expected]);
    // Naming the recipient changes nothing: no payment, no event.
    const payments: Array<{ count: string }> = await testApp.dataSource.query('SELECT count(*)::text FROM payments');
    expect(payments).toEqual([{ count: '0' }]);
  });

  it('answers an unknown, unconfirmed, blocked or staff recipient as not found alike, and oneself as a conflict', async () => {
    // Five questions are more than one account's allowance: two askers share them.
    const askers = await Promise.all([createActiveUser(testApp), createActiveUser(testApp)]);
    const unconfirmedEmail = uniqueEmail('unconfirmed');
    const signUp = await testApp.http.post('/api/auth/signup').send({
      email: unconfirmedEmail,
      password: FIXTURE_PASSWORD,
      firstName: 'Noa',
      lastName: 'Levi',
      termsAccepted: true,
    });
    expect(signUp.status).toBe(201);
    const blocked = await createActiveUser(testApp);
    await testApp.http
      .put(`/api/users/${blocked.userUuid}/status`)
      .set('Authorization', `Bearer ${await adminToken(testApp)}`)
      .send({ status: 'BLOCKED' });

    const unknowns = ['nobody@example.com', '00000000', unconfirmedEmail, blocked.email, manager.email];
    for (const [index, unknown] of unknowns.entries()) {
      const response = await lookUp(askers[index % 2], { recipient: unknown }, freshAddress());
      expect([unknown, response.status, response.body.error]).toEqual([unknown, 404, 'error.user.not.found']);
    }
    const self = await lookUp(sender, { recipient: sender.user.profileId }, freshAddress());
    expect([self.status, self.body.error]).toEqual([409, 'error.transfer.to.self']);
  });

  it('is for clients and ambassadors, and refuses a malformed recipient with the catalogue code', async () => {
    const address = freshAddress();
    expect((await lookUp(null, { recipient: recipient.email }, address)).status).toBe(401);
    expect((await lookUp(manager, { recipient: recipient.email }, address)).status).toBe(403);
    const malformed = await lookUp(recipient, { recipient: '1234567' }, freshAddress());
    expect(malformed.status).toBe(400);
    expect(malformed.body.details.fields).toEqual([
      { field: 'recipient', error: 'error.validation.invalid.recipient' },
    ]);
    const unknownField = await lookUp(recipient, { recipient: sender.email, amount: 1 }, freshAddress());
    expect(unknownField.body.details.fields).toEqual([{ field: 'amount', error: 'error.validation.unknown.field' }]);
  });

  it('limits look-ups per account, found or not, and then transfers to unknown recipients wait too', async () => {
    const asker = await createActiveUser(testApp);
    for (let index = 0; index < PER_ACCOUNT; index += 1) {
      const target = index % 2 === 0 ? recipient.email : uniqueEmail('guess');
      // Each from its own address: only the per-account counter fills.
      expect((await lookUp(asker, { recipient: target }, freshAddress())).status).toBe(index % 2 === 0 ? 200 : 404);
    }
    const limited = await lookUp(asker, { recipient: recipient.email }, freshAddress());
    expect([limited.status, limited.body.error]).toEqual([429, 'error.rate.limited']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
    const guessByTransfer = await transfer(asker, { recipient: uniqueEmail('guess'), amount: 1 }, freshAddress());
    expect([guessByTransfer.status, guessByTransfer.body.error]).toEqual([429, 'error.rate.limited']);
    // Another account is not limited by this one's look-ups.
    expect((await lookUp(sender, { recipient: recipient.email }, freshAddress())).status).toBe(200);
  });

  it('counts transfers to unknown recipients against the same allowance, and never successful ones', async () => {
    const payer = await createActiveUser(testApp);
    await depositAs(testApp, payer.userUuid, 10);
    for (let index = 0; index < PER_ACCOUNT + 2; index += 1) {
      expect((await transfer(payer, { recipient: recipient.email, amount: 1 }, freshAddress())).status).toBe(201);
    }
    expect((await lookUp(payer, { recipient: recipient.email }, freshAddress())).status).toBe(200);
    for (let index = 1; index < PER_ACCOUNT; index += 1) {
      const miss = await transfer(payer, { recipient: uniqueEmail('guess'), amount: 1 }, freshAddress());
      expect([miss.status, miss.body.error]).toEqual([404, 'error.user.not.found']);
    }
    const limited = await lookUp(payer, { recipient: recipient.email }, freshAddress());
    expect(limited.status).toBe(429);
    const transferLimited = await transfer(payer, { recipient: recipient.email, amount: 1 }, freshAddress());
    expect(transferLimited.status).toBe(429);
  });

  it('limits look-ups per client address, whatever the account', async () => {
    const address = freshAddress();
    const askers = await Promise.all([createActiveUser(testApp), createActiveUser(testApp), createActiveUser(testApp)]);
    for (let index = 0; index < PER_ADDRESS; index += 1) {
      expect((await lookUp(askers[index % 3], { recipient: recipient.email }, address)).status).toBe(200);
    }
    expect((await lookUp(askers[0], { recipient: recipient.email }, address)).status).toBe(429);
    expect((await lookUp(askers[0], { recipient: recipient.email }, freshAddress())).status).toBe(200);
  });
});
