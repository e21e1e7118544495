import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { addCalendarMonths, parseAmountToMinor } from '@kupa/proto';
import { CreatePlanCommand } from '../contexts/catalog';
import {
  AdminAccounts,
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  fullNameOf,
  SignUpCommand,
  UserReader,
  type UserView,
} from '../contexts/identity';
import { OpenCryptoDepositCommand, RecordManualPaymentCommand, TransferBalanceCommand } from '../contexts/ledger';
import {
  BuySubscriptionCommand,
  CancelSubscriptionCommand,
  ChooseRenewalFundingCommand,
  CreateCardCheckoutCommand,
  StartCardSetupCommand,
} from '../contexts/subscriptions';
import { type Actor, type RequestContext, systemContext } from '../platform/auth';
import { Clock } from '../platform/clock';
import { DEMO_CATALOGUE, DEMO_FRIEND } from './demo-catalogue';

/** How far back the demo's history starts: about four months, so the dashboard's months have figures. */
export const DEMO_HISTORY_DAYS = 120;

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The days the ambassador's package may end unpaid so that the demo's today falls inside its grace window
 * (RENEWAL_GRACE_DAYS, 3 by default), best first: the day before today, two days before, today itself.
 */
const GRACE_LAPSE_DAYS = [DEMO_HISTORY_DAYS - 1, DEMO_HISTORY_DAYS - 2, DEMO_HISTORY_DAYS] as const;
/** The monthly safety net is bought after the ambassador's yearly package (day 75), the quarterly one before day 30. */
const MONTHLY_NET_AFTER = 75;
const QUARTERLY_NET_BEFORE = 30;

/** What the seed cannot do through the command bus, done by the app it runs in (`demo-start.ts`). */
export interface DemoWorld {
  /**
   * Lets the demo's time pass to `day` days after its first one: the app moves its clock there, running the renewal
   * sweep and provisioning on the way, as the days would have passed on a server.
   */
  passTo(day: number): Promise<void>;
  /**
   * Presses Pay on a sandbox cashier invoice, as the visitor does on its page; the cashier's IPN then credits. Null
   * where the sandbox cashier is not the cashier (a named database with a real one): no crypto deposit is seeded.
   */
  payInvoice: ((invoiceUrl: string) => Promise<void>) | null;
  /**
   * Presses Pay on a sandbox card checkout page, as the visitor does; the sandbox's signed webhook then credits and
   * buys. Null where the sandbox card is not the card provider (a real Stripe): no card purchase is seeded.
   */
  payCardCheckout: ((checkoutUrl: string) => Promise<void>) | null;
  /**
   * Saves a sandbox test card on a sandbox setup page (ADR 0087), as its holder does by choosing it and pressing
   * Save; the sandbox's signed webhook then records the card. Null where the sandbox card is not the card provider:
   * no saved card is seeded.
   */
  saveCard: ((setupUrl: string, card: 'pays' | 'insufficient-funds') => Promise<void>) | null;
}

/** For a run that finds the catalogue there and so seeds nothing. */
const NO_WORLD: DemoWorld = {
  passTo: async () => undefined,
  payInvoice: null,
  payCardCheckout: null,
  saveCard: null,
};

/**
 * The embedded demo's catalogue and history (docs/adr/0075-demo-catalogue-and-bilingual-packages.md): the packages a
 * reseller would sell, and what the demo clients did with them over a few months, written through the same command
 * bus and processors as real traffic, so `kupa ledger verify` stays clean and the dashboard has figures. Run by
 * `seedDemoHistory` in an app of its own on a hand-moved clock, and only once: a database that has any package
 * already is left as it is, whoever made it.
 */
@Injectable()
export class DemoSeed {
  constructor(
    private readonly commands: CommandBus,
    private readonly accounts: AdminAccounts,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Seeds once, letting time pass in `world`; answers what it wrote, or null when there was a catalogue. */
  async seed(world: DemoWorld = NO_WORLD): Promise<{ plans: number } | null> {
    const passTo = (day: number) => world.passTo(day);
    const [{ count }]: Array<{ count: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM payment_plans`,
    );
    if (count > 0) return null;
    // The accounts exist by now when identity's bootstrap ran first; ensuring them again makes the order not matter.
    for (const account of DEMO_ACCOUNTS) await this.accounts.ensureIfMissing(account);
    const [admin, manager, client, ambassador] = await Promise.all(
      DEMO_ACCOUNTS.map(async (account) => actorOf(await this.user(account.email))),
    );
    const context = (actor: Actor): RequestContext => ({ ...systemContext(), actor });

    const plans = [];
    for (const plan of DEMO_CATALOGUE) {
      plans.push(await this.commands.execute(new CreatePlanCommand({ ...plan }, context(admin))));
    }
    const [monthly, quarterly, sport, yearly] = plans;

    // Money in, by the one method every demo has: deposits that staff record (the manager one, the admin another).
    // The ambassador's is above the first bonus tier, so it earns the ambassador bonus as real deposits do.
    const deposit = (staff: Actor, user: Actor, dollars: number, comment: string) =>
      this.commands.execute(
        new RecordManualPaymentCommand(
          staff,
          user.userUuid,
          minor(dollars),
          'DEPOSIT',
          comment,
          false,
          null,
          null,
          null,
          context(staff),
        ),
      );
    const buy = (user: Actor, planId: string, login: string) =>
      this.commands.execute(
        new BuySubscriptionCommand(user, planId, { login, password: 'Demo-Stream-2026' }, null, context(user)),
      );
    await deposit(manager, client, 120, 'Bank transfer, reference 4471');
    await deposit(admin, ambassador, 300, 'Cash at the office');

    // The client's monthly package, which the renewal sweep renews from the balance every month after, and a
    // quarterly one cancelled at once, which stays active to its end date and then ends CANCELED.
    await passTo(2);
    await buy(client, monthly.id, 'dana.family');
    const cancelled = await buy(client, quarterly.id, 'dana.sport');
    await this.commands.execute(new CancelSubscriptionCommand(client, cancelled.id, context(client)));

    // The two-month package is not recurrent: the sweep expires it at its end date.
    await passTo(20);
    await buy(ambassador, sport.id, 'ron.sport');

    // The safety net (ADR 0081): the ambassador takes a recurrent package and later cashes out his balance, so its
    // automatic renewal finds the balance short (the renewal-failed reminder) and at its end it lapses into its grace
    // window (the grace-started reminder): paused, its login kept, still renewable today. The monthly one is bought on
    // the day whose calendar month ends on one of GRACE_LAPSE_DAYS; where the months' lengths allow no such day, the
    // quarterly one, early on. Either way the same every run for the same today.
    const safetyNet = this.safetyNetPurchase(20);
    let safetyNetId = '';
    const buySafetyNet = async () => {
      await passTo(safetyNet.day);
      safetyNetId = (await buy(ambassador, (safetyNet.months === 1 ? monthly : quarterly).id, 'ron.home')).id;
    };
    // With the sandbox card (every demo without Stripe), the safety net is the card story (ADR 0086): before its
    // renewal is due, the ambassador saves the sandbox's card that is declined for insufficient funds and has the
    // package renewed by card, so the sweep's off-session charge is declined, the renewal-failed reminder says so,
    // and the package lapses into its grace window all the same.
    const saveDecliningCard = async () => {
      if (!world.saveCard) return;
      const setup = await this.commands.execute(new StartCardSetupCommand(ambassador, context(ambassador)));
      await world.saveCard(setup.url, 'insufficient-funds');
      await this.commands.execute(
        new ChooseRenewalFundingCommand(ambassador, safetyNetId, 'CARD', context(ambassador)),
      );
    };
    const cashOutAmbassador = async () => {
      const [{ balance }]: Array<{ balance: string }> = await this.dataSource.query(
        `SELECT COALESCE(max(balance_minor), 0)::text AS balance FROM ledger_user_balances WHERE user_uuid = $1`,
        [ambassador.userUuid],
      );
      // Three dollars stay: less than the renewal, whatever his referral discount.
      await this.commands.execute(
        new RecordManualPaymentCommand(
          admin,
          ambassador.userUuid,
          Number(balance) - minor(3),
          'WITHDRAW',
          'Cash paid out at the office',
          false,
          null,
          null,
          null,
          context(admin),
        ),
      );
    };
    if (safetyNet.months === 3) await buySafetyNet();

    // A card purchase through the sandbox card (on in every demo without Stripe): the client opens the checkout,
    // pays on its test page, and the signed webhook credits the card money and buys the package in one append, as a
    // visitor's card purchase does. Bought on day 30, the two-month package has expired by the end, whatever the
    // lengths of the months.
    await passTo(30);
    if (world.payCardCheckout) {
      const checkout = await this.commands.execute(
        new CreateCardCheckoutCommand(
          client,
          sport.id,
          { login: 'dana.match', password: 'Demo-Stream-2026' },
          context(client),
        ),
      );
      await world.payCardCheckout(checkout.url);
    }

    await passTo(45);
    await deposit(manager, client, 40, 'Bit payment');
    await passTo(50);
    await this.commands.execute(new TransferBalanceCommand(client, ambassador.email, minor(15), null, context(client)));
    await passTo(75);
    await buy(ambassador, yearly.id, 'ron.premium');

    if (safetyNet.months === 1) await buySafetyNet();
    await cashOutAmbassador();
    await saveDecliningCard();

    // A crypto deposit through the sandbox cashier (on in every demo): the client opens the invoice, pays it on the
    // invoice page, and the cashier's signed IPN credits the wallet, as a visitor's top-up does.
    await passTo(90);
    if (world.payInvoice) {
      const invoice = await this.commands.execute(
        new OpenCryptoDepositCommand(client, minor(50), 'CRYPTO_USDT_TRC20', context(client)),
      );
      await world.payInvoice(invoice.invoiceUrl);
    }

    // A friend who signed up with the ambassador's referral ID (still offered the trial: they have neither taken
    // nor declined it, and bought nothing).
    await passTo(100);
    const ambassadorView = await this.user(ambassador.email);
    await this.commands.execute(
      new SignUpCommand(
        { ...DEMO_FRIEND, password: DEMO_PASSWORD, termsAccepted: true, referralToken: ambassadorView.profileId },
        systemContext(),
      ),
    );
    // Today, so that the dashboard's "this month" has deposits, revenue and a new subscription whatever the date.
    await passTo(DEMO_HISTORY_DAYS);
    await deposit(admin, client, 25, 'Cash at the office');
    await buy(client, sport.id, 'dana.league');
    // Provisioning settles it before the seed's app closes, so the server starts with nothing of the seed pending.
    await passTo(DEMO_HISTORY_DAYS);
    return { plans: plans.length };
  }

  /**
   * Which package the ambassador's safety net is and on which day he buys it (days count from the history's start as
   * `passTo` counts them; `today` is where the clock is now): a one-month period ending on one of GRACE_LAPSE_DAYS,
   * else a three-month one. A month-long period cannot always end there (a 28-day February is followed by a jump of
   * four days), a quarter from the end of December can.
   */
  private safetyNetPurchase(today: number): { months: 1 | 3; day: number } {
    const start = this.clock.now().getTime() - today * DAY_MS;
    const endDayOf = (day: number, months: number) =>
      Math.round((addCalendarMonths(new Date(start + day * DAY_MS), months).getTime() - start) / DAY_MS);
    const dayEnding = (months: number, from: number, before: number): number | null => {
      for (const endDay of GRACE_LAPSE_DAYS)
        for (let day = from + 1; day < Math.min(before, endDay); day += 1)
          if (endDayOf(day, months) === endDay) return day;
      return null;
    };
    const monthlyDay = dayEnding(1, MONTHLY_NET_AFTER, DEMO_HISTORY_DAYS);
    if (monthlyDay !== null) return { months: 1, day: monthlyDay };
    const quarterlyDay = dayEnding(3, today, QUARTERLY_NET_BEFORE);
    if (quarterlyDay !== null) return { months: 3, day: quarterlyDay };
    throw new Error('Demo seed: no package ends in the grace window');
  }

  private async user(email: string): Promise<UserView> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new Error(`Demo account ${email} is missing`);
    return user;
  }
}

function actorOf(user: UserView): Actor {
  return { userUuid: user.uuid, email: user.email, role: user.role, name: fullNameOf(user) };
}

function minor(dollars: number): number {
  const parsed = parseAmountToMinor(dollars);
  if (!parsed.ok) throw new Error(`Demo amount ${dollars} is not an amount`);
  return parsed.amountMinor;
}
