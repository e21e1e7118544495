import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { platformMigrations } from '../database/migrations';
import type { TelegramUpdate } from './index';
import { TelegramUpdates } from './telegram-updates';
import { TelegramUpdatesPruningSweep } from './telegram-updates-pruning.sweep';

describe('Telegram updates on PostgreSQL: pruning the handled ids', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let updates: TelegramUpdates;
  const handled: number[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource({ type: 'postgres', url: database.url, migrations: platformMigrations });
    await dataSource.initialize();
    await dataSource.runMigrations();
    updates = new TelegramUpdates(dataSource);
    updates.register(async (update) => {
      handled.push(update.update_id);
    });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const update = (id: number) => ({ update_id: id }) as TelegramUpdate;
  /** Makes a claim look received `days` ago, by the database's clock that wrote it. */
  const age = (id: number, days: number) =>
    dataSource.query(
      `UPDATE telegram_updates SET received_at = now() - make_interval(days => $2) WHERE update_id = $1`,
      [id, days],
    );
  const kept = async () =>
    (
      (await dataSource.query('SELECT update_id::int AS id FROM telegram_updates ORDER BY update_id')) as {
        id: number;
      }[]
    ).map((row) => row.id);

  it('deletes claims past the retention, keeps recent ones and always the largest id, and stays idempotent', async () => {
    for (const id of [100, 101, 102, 103]) await updates.handle(update(id));
    await age(100, 40);
    await age(101, 31);
    await age(102, 29);
    // The largest is old too (a quiet bot): it stays, as the polling offset.
    await age(103, 60);
    const sweep = new TelegramUpdatesPruningSweep(updates, 30);

    expect(await sweep.sweep()).toEqual({ acted: 2, more: false });
    expect(await kept()).toEqual([102, 103]);
    expect(await updates.nextOffset()).toBe(104);
    // A repeat of a kept claim is still refused; nothing is left to prune.
    expect(await updates.handle(update(102))).toBe(false);
    expect(await sweep.sweep()).toEqual({ acted: 0, more: false });
    expect(handled).toEqual([100, 101, 102, 103]);
  });

  it('leaves the only claim alone, however old', async () => {
    await dataSource.query('DELETE FROM telegram_updates');
    await updates.handle(update(200));
    await age(200, 365);
    expect(await new TelegramUpdatesPruningSweep(updates, 2).sweep()).toEqual({ acted: 0, more: false });
    expect(await updates.nextOffset()).toBe(201);
  });
});
