import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { parseAmountToMinor } from '@kupa/proto';
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
import { RecordManualPaymentCommand, TransferBalanceCommand } from '../contexts/ledger';
import { BuySubscriptionCommand, CancelSubscriptionCommand } from '../contexts/subscriptions';
import { type Actor, type RequestContext, systemContext } from '../platform/auth';
import { APP_CONFIG, type AppConfig } from '../platform/config';
import { DEMO_CATALOGUE, DEMO_FRIEND } from './demo-catalogue';

/**
 * The embedded demo's catalogue and history (docs/adr/0075-demo-catalogue-and-bilingual-packages.md): the packages a
 * reseller would sell, and what the demo clients did with them, written through the same command bus as real
 * traffic, so `kupa ledger verify` stays clean and the dashboard has figures. Only with `DEMO_DATA` on (the embedded
 * database by default, never a deployment with `DATABASE_URL` unless asked), and only once: a database that has any
 * package already is left as it is, whoever made it.
 */
@Injectable()
export class DemoSeed implements OnApplicationBootstrap {
  private readonly logger = new Logger('Demo');

  constructor(
    private readonly commands: CommandBus,
    private readonly accounts: AdminAccounts,
    private readonly users: UserReader,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.demoData) return;
    const seeded = await this.seed();
    if (seeded) this.logger.log(`Demo catalogue and history seeded: ${seeded.plans} packages`);
  }

  /** Seeds once; answers what it wrote, or null when the database already had a catalogue. */
  async seed(): Promise<{ plans: number } | null> {
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
    const [monthly, quarterly, , yearly] = plans;

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
          context(staff),
        ),
      );
    await deposit(manager, client, 120, 'Bank transfer, reference 4471');
    await deposit(admin, ambassador, 300, 'Cash at the office');
    await deposit(manager, client, 40, 'Bit payment');

    // Purchases from the balance: the client's monthly package (renewing by itself) and a quarterly one cancelled
    // since, which stays active to its end date; the ambassador's yearly package.
    const buy = (user: Actor, planId: string, login: string) =>
      this.commands.execute(
        new BuySubscriptionCommand(user, planId, { login, password: 'Demo-Stream-2026' }, null, context(user)),
      );
    await buy(client, monthly.id, 'dana.family');
    const cancelled = await buy(client, quarterly.id, 'dana.sport');
    await this.commands.execute(new CancelSubscriptionCommand(client, cancelled.id, context(client)));
    await buy(ambassador, yearly.id, 'ron.premium');

    // A transfer between clients, and a friend who signed up with the ambassador's referral ID (still offered the
    // trial: they have neither taken nor declined it, and bought nothing).
    await this.commands.execute(new TransferBalanceCommand(client, ambassador.email, minor(15), null, context(client)));
    const ambassadorView = await this.user(ambassador.email);
    await this.commands.execute(
      new SignUpCommand(
        { ...DEMO_FRIEND, password: DEMO_PASSWORD, termsAccepted: true, referralToken: ambassadorView.profileId },
        systemContext(),
      ),
    );
    return { plans: plans.length };
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
