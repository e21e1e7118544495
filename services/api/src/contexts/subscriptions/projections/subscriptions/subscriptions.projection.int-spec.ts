import { randomUUID } from 'node:crypto';
import { LIMITS } from '@kupa/proto';
import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { createMigratedDatabase, type MigratedDatabase } from '../../../../test-support/migrated-database';
import { SubscriptionsProjection } from './subscriptions.projection';

const DAY_MS = 86_400_000;

/**
 * The subscriptions row after each change, and how many times a change writes it: once, the next payment date set
 * in the same `UPDATE` as the columns it follows (issue 36, cut 4: a second statement cost a row version and its
 * index entries, the row's `status` and `next_payment_date` being indexed).
 */
describe('SubscriptionsProjection', () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  const projection = new SubscriptionsProjection();
  let position = 0;

  beforeAll(async () => {
    database = await createMigratedDatabase();
    dataSource = database.dataSource;
    // Every row version the projection writes, in order.
    await dataSource.query(`CREATE TABLE subscription_writes (seq bigserial, id uuid, status text)`);
    await dataSource.query(`
      CREATE FUNCTION record_subscription_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO subscription_writes (id, status) VALUES (NEW.id, NEW.status); RETURN NEW; END $$`);
    await dataSource.query(`
      CREATE TRIGGER subscription_writes AFTER UPDATE ON subscriptions
        FOR EACH ROW EXECUTE FUNCTION record_subscription_write()`);
  });

  afterAll(async () => {
    await database?.drop();
  });

  async function apply(type: string, data: Record<string, unknown>, occurredAt = '2026-03-01T10:00:00.000Z') {
    position += 1;
    const event = {
      position,
      type,
      data,
      metadata: { occurredAt, actor: { id: 'USER-x', email: 'staff@example.com', role: 'ADMIN', name: null } },
    } as unknown as RecordedEvent;
    await dataSource.transaction((manager) => projection.apply([event], manager));
  }

  async function purchase(isRecurrent: boolean): Promise<string> {
    const subscriptionId = randomUUID();
    await apply('SubscriptionPurchased', {
      subscriptionId,
      userUuid: randomUUID(),
      userEmail: 'client@example.com',
      type: 'REGULAR',
      planId: randomUUID(),
      planName: 'Yearly',
      durationInMonths: 12,
      trialDays: null,
      priceMinor: 1000,
      listPriceMinor: 1000,
      discountPercent: 0,
      currency: 'USD',
      isRecurrent,
      login: `login-${subscriptionId.slice(0, 8)}`,
      paymentId: 1,
      purchasedAt: '2026-03-01T09:59:00.000Z',
    });
    return subscriptionId;
  }

  async function rowOf(subscriptionId: string) {
    const [row]: Array<{ status: string; end_date: Date | null; next_payment_date: Date | null; updated_by: string }> =
      await dataSource.query(
        'SELECT status, start_date, end_date, next_payment_date, updated_by FROM subscriptions WHERE id = $1',
        [subscriptionId],
      );
    return row;
  }

  async function writesOf(subscriptionId: string): Promise<string[]> {
    const rows: Array<{ status: string }> = await dataSource.query(
      'SELECT status FROM subscription_writes WHERE id = $1 ORDER BY seq',
      [subscriptionId],
    );
    return rows.map((row) => row.status);
  }

  const activation = (subscriptionId: string) => ({
    subscriptionId,
    userUuid: randomUUID(),
    startDate: '2026-03-01T10:00:00.000Z',
    endDate: '2027-03-01T10:00:00.000Z',
    activatedAt: '2026-03-01T10:00:00.000Z',
  });
  const leadBefore = (iso: string) => new Date(new Date(iso).getTime() - LIMITS.renewalLeadDays * DAY_MS);

  it('activates a recurrent subscription in one write, the next payment the renewal lead before its end', async () => {
    const subscriptionId = await purchase(true);
    await apply('SubscriptionActivated', activation(subscriptionId));
    expect(await writesOf(subscriptionId)).toEqual(['ACTIVE']);
    expect(await rowOf(subscriptionId)).toMatchObject({
      status: 'ACTIVE',
      end_date: new Date('2027-03-01T10:00:00.000Z'),
      next_payment_date: leadBefore('2027-03-01T10:00:00.000Z'),
      updated_by: 'staff@example.com',
    });
  });

  it('activates a subscription that does not renew in one write, with no next payment', async () => {
    const subscriptionId = await purchase(false);
    await apply('SubscriptionActivated', activation(subscriptionId));
    expect(await writesOf(subscriptionId)).toEqual(['ACTIVE']);
    expect(await rowOf(subscriptionId)).toMatchObject({ status: 'ACTIVE', next_payment_date: null });
  });

  it('starts one switched off before it started as UNSUBSCRIBED, with no next payment', async () => {
    const subscriptionId = await purchase(true);
    await apply('SubscriptionRecurrenceDeactivated', { subscriptionId, deactivatedAt: '2026-03-01T09:59:30.000Z' });
    await apply('SubscriptionActivated', activation(subscriptionId));
    expect(await writesOf(subscriptionId)).toEqual(['PENDING', 'UNSUBSCRIBED']);
    expect(await rowOf(subscriptionId)).toMatchObject({ status: 'UNSUBSCRIBED', next_payment_date: null });
  });

  it('follows a failed renewal, a cancellation, a resumption and a renewal, each in one write', async () => {
    const subscriptionId = await purchase(true);
    await apply('SubscriptionActivated', activation(subscriptionId));
    // A failed renewal's next attempt is later than the lead before the end, so it stays.
    const nextAttemptAt = '2027-02-27T10:00:00.000Z';
    await apply('SubscriptionRenewalFailed', { subscriptionId, nextAttemptAt, reason: 'funds' });
    expect((await rowOf(subscriptionId)).next_payment_date).toEqual(new Date(nextAttemptAt));
    await apply('SubscriptionCancelled', { subscriptionId });
    expect((await rowOf(subscriptionId)).next_payment_date).toBeNull();
    await apply('SubscriptionResumed', { subscriptionId });
    expect((await rowOf(subscriptionId)).next_payment_date).toEqual(leadBefore('2027-03-01T10:00:00.000Z'));
    await apply('SubscriptionRenewed', {
      subscriptionId,
      priceMinor: 1000,
      discountPercent: 0,
      endDate: '2028-03-01T10:00:00.000Z',
    });
    expect(await rowOf(subscriptionId)).toMatchObject({
      status: 'ACTIVE',
      next_payment_date: leadBefore('2028-03-01T10:00:00.000Z'),
    });
    expect(await writesOf(subscriptionId)).toHaveLength(5);
  });
});
