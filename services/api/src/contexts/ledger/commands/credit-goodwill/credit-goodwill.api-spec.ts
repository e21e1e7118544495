import { CommandBus } from '@nestjs/cqrs';
import type { Payment } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { type ActiveUser, createActiveUser } from '../../../../test-support/identity-fixtures';
import { startTestApp, type TestApp } from '../../../../test-support/test-app';
import { balanceMinorOf, expectReadModelsToEqualReplay } from '../../ledger.fixtures';
import { CreditGoodwillCommand } from './credit-goodwill.command';
import { expectLedgerVerifyOk } from '../../../../test-support/ledger-verification';

describe('a bulk goodwill credit (ADR 0090)', () => {
  let testApp: TestApp;
  let client: ActiveUser;
  let admin: ActiveUser;

  beforeAll(async () => {
    testApp = await startTestApp();
    [client, admin] = await Promise.all([createActiveUser(testApp), createActiveUser(testApp, { role: 'ADMIN' })]);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const credit = (batchId: string, userUuid = client.userUuid) => {
    const actor = { userUuid: admin.userUuid, email: admin.email, name: 'Admin', role: 'ADMIN' as const };
    return testApp.app.get(CommandBus).execute(
      new CreditGoodwillCommand(actor, batchId, userUuid, 300, 'Outage of 28 Nov', 'Sorry for the outage', {
        actor,
        ip: null,
        correlationId: batchId,
      }),
    ) as Promise<Payment>;
  };

  it('credits the client from expense:goodwill once per batch, however often it is run', async () => {
    const before = await balanceMinorOf(testApp, client.userUuid);
    const batchId = randomUUID();
    const [first, ...repeats] = await Promise.all([credit(batchId), credit(batchId), credit(batchId)]);
    for (const repeat of repeats) expect(repeat.paymentId).toBe(first.paymentId);
    expect(await credit(batchId)).toEqual(first);
    expect(first).toMatchObject({ type: 'DEPOSIT', status: 'SUCCESS', amount: 3, publicNote: 'Sorry for the outage' });
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(before + 300);
    const entries = await testApp.dataSource.query(
      'SELECT account, amount_minor FROM ledger_entries WHERE payment_id = $1 ORDER BY entry_id',
      [first.paymentId],
    );
    expect(entries).toEqual([
      { account: 'expense:goodwill', amount_minor: '-300' },
      { account: `user:${client.userUuid}`, amount_minor: '300' },
    ]);
    // Another batch credits again.
    await credit(randomUUID());
    expect(await balanceMinorOf(testApp, client.userUuid)).toBe(before + 600);
  });

  it('refuses a client who does not exist with a catalogue code', async () => {
    await expect(credit(randomUUID(), randomUUID())).rejects.toMatchObject({ code: 'error.user.not.found' });
  });

  it('leaves read models equal to a replay of the events, and `kupa ledger verify` explains expense:goodwill', async () => {
    await expectReadModelsToEqualReplay(testApp);
    await expectLedgerVerifyOk(testApp);
    // The two credits of the first test, $3.00 each, are what the house gave away.
    const [goodwill] = await testApp.dataSource.query(
      `SELECT sum(amount_minor)::int AS total FROM ledger_entries WHERE account = 'expense:goodwill'`,
    );
    expect(goodwill.total).toBe(-600);
  });
});
