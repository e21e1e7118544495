import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { AppModuleOptions } from './app.module';
import { SUBSCRIPTION_RENEWALS_SWEEP } from './contexts/subscriptions';
import { createApp } from './create-app';
import { DEMO_HISTORY_DAYS, DemoSeed } from './demo';
import { CardProviderSettings } from './platform/card-provider';
import { CashierSettings } from './platform/cashier';
import { ManualClock } from './platform/clock';
import { Schedules } from './platform/jobs';
import type { JsonLogger } from './platform/observability';
import { BackgroundWork } from './platform/workers';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long the seed waits for provisioning (the built-in simulator) to settle what was bought, before giving up. */
const SETTLE_TIMEOUT_MS = 30_000;
const SETTLE_POLL_MS = 50;

/**
 * Seeds the embedded demo's months of history (docs/adr/0075-demo-catalogue-and-bilingual-packages.md) before the
 * server starts: in an application of its own on the same database, whose clock starts `DEMO_HISTORY_DAYS` before
 * `now` and is moved forward a day at a time, running the renewal sweep each day and letting provisioning settle,
 * so every event is written by the commands and processors of real traffic at the instant it would have had. Only
 * with `DEMO_DATA` on and only on a database with no event at all: a back-dated event on a stream that already has
 * a later one would break the order of instants on a stream, so a database that was ever used is left alone.
 */
export async function seedDemoHistory(
  options: AppModuleOptions & { logger?: JsonLogger },
  now: Date = new Date(),
): Promise<boolean> {
  if (!options.config.demoData || !(await hasNoEvents(options.databaseUrl))) return false;
  const start = new Date(now.getTime() - DEMO_HISTORY_DAYS * DAY_MS);
  const clock = new ManualClock(start);
  // Processors follow the event store within tens of milliseconds, so the months pass in seconds.
  const config = { ...options.config, workerPollIntervalMs: Math.min(options.config.workerPollIntervalMs, 20) };
  const app = await createApp({ ...options, config, clock, serveUi: false });
  try {
    await app.init();
    // Provisioning reaches the built-in simulator over this application's own origin, so it listens, on loopback.
    await app.listen(0, '127.0.0.1');
    app.get(BackgroundWork).start();
    const dataSource = app.get(DataSource);
    const schedules = app.get(Schedules);
    let day = 0;
    const passTo = async (target: number): Promise<void> => {
      await settle(dataSource);
      while (day < target) {
        day += 1;
        clock.set(day >= DEMO_HISTORY_DAYS ? now : new Date(start.getTime() + day * DAY_MS));
        await schedules.sweepNow(SUBSCRIPTION_RENEWALS_SWEEP);
        await settle(dataSource);
      }
    };
    // The invoice's link names the public address; the sandbox's page is served by this app, on loopback.
    const origin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const payInvoice = async (invoiceUrl: string): Promise<void> => {
      const invoice = new URL(invoiceUrl);
      const response = await fetch(`${origin}${invoice.pathname}/pay${invoice.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        redirect: 'manual',
      });
      await response.arrayBuffer();
      if (response.status >= 400) throw new Error(`Demo seed: the sandbox invoice answered ${response.status}`);
      await credited(dataSource);
    };
    // The checkout page's Pay, as its form posts it: the sandbox delivers the signed webhook before it answers.
    const payCardCheckout = async (checkoutUrl: string): Promise<void> => {
      const checkout = new URL(checkoutUrl);
      const response = await fetch(`${origin}${checkout.pathname}/pay${checkout.search}`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        redirect: 'manual',
      });
      const outcome = (await response.json()) as { webhookStatus?: number };
      if (response.status >= 400 || outcome.webhookStatus !== 200)
        throw new Error(
          `Demo seed: the sandbox card answered ${response.status}, its webhook ${outcome.webhookStatus}`,
        );
      await credited(dataSource);
    };
    // The setup page's Save with the chosen test card, as its form posts it: the sandbox delivers the signed webhook
    // of the completed setup before it answers, so the card is saved when this returns.
    const saveCard = async (setupUrl: string, card: string): Promise<void> => {
      const setup = new URL(setupUrl);
      const response = await fetch(`${origin}${setup.pathname}/save${setup.search}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ card }).toString(),
        redirect: 'manual',
      });
      const outcome = (await response.json()) as { webhookStatus?: number };
      if (response.status >= 400 || outcome.webhookStatus !== 200)
        throw new Error(
          `Demo seed: the sandbox setup answered ${response.status}, its webhook ${outcome.webhookStatus}`,
        );
    };
    const sandboxCashier = app.get(CashierSettings).sandbox;
    const sandboxCard = app.get(CardProviderSettings).sandbox;
    const seeded = await app.get(DemoSeed).seed({
      passTo,
      payInvoice: sandboxCashier ? payInvoice : null,
      payCardCheckout: sandboxCard ? payCardCheckout : null,
      saveCard: sandboxCard ? saveCard : null,
    });
    return seeded !== null;
  } finally {
    await app.close();
  }
}

async function hasNoEvents(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = await client.query<{ present: boolean }>(`SELECT to_regclass('events') IS NOT NULL AS present`);
    if (!table.rows[0].present) return true;
    const events = await client.query(`SELECT 1 FROM events LIMIT 1`);
    return events.rowCount === 0;
  } finally {
    await client.end();
  }
}

/** Waits until no subscription waits for provisioning: what the seed bought is ACTIVE before its time moves on. */
async function settle(dataSource: DataSource): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const [{ count }]: Array<{ count: number }> = await dataSource.query(
      `SELECT count(*)::int AS count FROM subscriptions WHERE status = 'PENDING'`,
    );
    if (count === 0) return;
    if (Date.now() > deadline) throw new Error('Demo seed: provisioning did not settle the demo subscriptions');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/** Waits until the cashier's IPN or the card's webhook has settled every deposit the seed opened with a provider. */
async function credited(dataSource: DataSource): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const [{ count }]: Array<{ count: number }> = await dataSource.query(
      `SELECT count(*)::int AS count FROM payments WHERE aggregator IN ('CASHIER', 'STRIPE') AND status = 'PENDING'`,
    );
    if (count === 0) return;
    if (Date.now() > deadline) throw new Error('Demo seed: a sandbox provider did not credit a deposit');
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}
