import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ManualClock } from '../../../platform/clock';
import { createMigratedDatabase, type MigratedDatabase } from '../../../test-support/migrated-database';
import { TelegramOutboxPruningSweep } from './telegram-outbox-pruning.sweep';

const DAY_MS = 24 * 60 * 60_000;

describe('The Telegram outbox on PostgreSQL: pruning', () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  const clock = new ManualClock(new Date('2026-06-01T10:00:00Z'));
  const daysAgo = (days: number) => new Date(clock.now().getTime() - days * DAY_MS);

  beforeAll(async () => {
    database = await createMigratedDatabase();
    dataSource = database.dataSource;
  });

  afterAll(async () => {
    await database?.drop();
  });

  /** A message created `createdDaysAgo`, sent or skipped when given, waiting otherwise. */
  async function message(
    key: string,
    createdDaysAgo: number,
    done: { sentDaysAgo?: number; skippedDaysAgo?: number } = {},
  ): Promise<void> {
    await dataSource.query(
      `INSERT INTO telegram_outbox (dedupe_key, user_uuid, kind, params, created_at, next_attempt_at, sent_at,
                                    skipped_at, skip_reason)
       VALUES ($1, $2, 'deposit-credited', '{}', $3, $3, $4, $5, $6)`,
      [
        key,
        randomUUID(),
        daysAgo(createdDaysAgo),
        done.sentDaysAgo === undefined ? null : daysAgo(done.sentDaysAgo),
        done.skippedDaysAgo === undefined ? null : daysAgo(done.skippedDaysAgo),
        done.skippedDaysAgo === undefined ? null : 'BLOCKED',
      ],
    );
  }

  const kept = async () =>
    (
      (await dataSource.query('SELECT dedupe_key FROM telegram_outbox ORDER BY dedupe_key')) as { dedupe_key: string }[]
    ).map((row) => row.dedupe_key);

  it('deletes messages sent or skipped before the retention; waiting and recent ones stay', async () => {
    await message('old-sent', 45, { sentDaysAgo: 44 });
    await message('old-skipped', 40, { skippedDaysAgo: 35 });
    await message('recent-sent', 40, { sentDaysAgo: 29 });
    await message('recent-skipped', 5, { skippedDaysAgo: 5 });
    // Waiting for months (the chat's quiet hours, Telegram down): never pruned, it has not gone out.
    await message('old-waiting', 90);
    await message('new-waiting', 0);
    const sweep = new TelegramOutboxPruningSweep(dataSource, clock, 30);

    expect(await sweep.sweep()).toEqual({ acted: 2, more: false });
    expect(await kept()).toEqual(['new-waiting', 'old-waiting', 'recent-sent', 'recent-skipped']);

    // Two days later the message sent 29 days ago has passed the retention too.
    clock.advanceMs(2 * DAY_MS);
    expect(await sweep.sweep()).toEqual({ acted: 1, more: false });
    expect(await kept()).toEqual(['new-waiting', 'old-waiting', 'recent-skipped']);
  });
});
