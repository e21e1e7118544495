import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CardCheckoutResponse, PaymentStatus } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';
import { CommandPipeline, type CommandStamp } from '../../../../platform/commands';
import { APP_CONFIG, type AppConfig, RewardTiers } from '../../../../platform/config';
import { ApiError } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { mayEarnAmbassadorBonus, settleCardReport } from '../../domain/card-report';
import { openCardDeposit } from '../../domain/deposits';
import type { CardReport } from '../../domain/payment.decider';
import {
  type LoadedPaymentStream,
  type LoadedWalletStream,
  nextPaymentIds,
  paymentStreams,
  walletStreams,
} from '../../infrastructure/ledger-streams';
import { assertDepositAmountInRange } from '../deposit-limits';
import { CardDepositCheckouts, type CardDepositRow } from './card-deposit-checkouts';

/** What the provider's word did to a card top-up: the deposit's status and what it put on the balance. */
export interface CardTopUpSettlement {
  paymentId: number;
  status: PaymentStatus;
  creditedMinor: number;
}

/** The name a card top-up's checkout shows on the provider's page. */
const CARD_TOP_UP_PRODUCT = 'Kupa balance top-up';

/**
 * Card top-ups of the balance (docs/adr/0082-card-top-ups.md): a card deposit that pays for nothing but the balance.
 * It opens as a card purchase's deposit does (`CardDepositCheckouts`, `openCardDeposit`) and is settled by the same
 * card report decision (`settleCardReport`): once, for what was asked in dollars, with an ambassador's bonus in the
 * same append. Only the operator's switch (`CARD_BALANCE_PAYMENTS`) and the deposit limits are its own.
 */
@Injectable()
export class CardTopUps {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly dataSource: DataSource,
    private readonly cards: CardDepositCheckouts,
    private readonly users: UserReader,
    private readonly tiers: RewardTiers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether a client may top up by card now: a card provider is configured and the operator's switch is on. */
  get available(): boolean {
    return this.cards.available && this.config.cardBalancePayments;
  }

  /**
   * Opens a card top-up of `amountMinor`: refused when the operator turned card balance payments off (409
   * `error.card.balance.payments.off`), without a card provider (503), or outside the deposit limits (400
   * `error.deposit.amount.out.of.range`); then the checkout is asked of the provider, and only then the PENDING
   * deposit is recorded.
   */
  async open(actor: Actor, amountMinor: number, context: RequestContext): Promise<CardCheckoutResponse> {
    if (!this.config.cardBalancePayments) throw new ApiError('error.card.balance.payments.off');
    if (!this.cards.available) throw new ApiError('error.card.provider.unavailable');
    assertDepositAmountInRange(this.config, amountMinor);
    const checkout = await this.cards.open({ owner: actor, amountMinor, productName: CARD_TOP_UP_PRODUCT });
    const { result } = await this.pipeline.run({
      context,
      streams: { payment: paymentStreams.ref(checkout.paymentId) },
      decide: ({ payment }, { at }) => ({
        events: { payment: openCardDeposit(checkout, at, payment.state) },
        result: { paymentId: checkout.paymentId, url: checkout.url },
      }),
    });
    return result;
  }

  /**
   * Applies the provider's word on a card top-up under the deposit's and the wallet's locks (and the bonus's, for an
   * ambassador): credited once, whatever order or how many times the reports come. Money that arrives is credited
   * whether or not the switch is on now: it was taken from the card under the switch that held at the opening.
   */
  async settle(
    deposit: CardDepositRow,
    report: CardReport,
    origin: { context: RequestContext; causationId: string | null },
  ): Promise<CardTopUpSettlement> {
    const owner = await this.users.findByUuid(deposit.userUuid);
    const role = owner?.role ?? 'CLIENT';
    // A card checkout is credited once and whole, so a deposit has at most one bonus, named up front; an unused id
    // is a harmless gap, as for a card purchase.
    const [bonusPaymentId] = mayEarnAmbassadorBonus(role) ? await nextPaymentIds(this.dataSource.manager, 1) : [null];
    const decide = (
      loaded: { deposit: LoadedPaymentStream; wallet: LoadedWalletStream },
      bonus: LoadedPaymentStream | null,
      stamp: CommandStamp,
    ) => {
      const card = settleCardReport(
        {
          report,
          at: stamp.at,
          role,
          tiers: this.tiers.ambassadorBonus,
          transactionIds: { credit: randomUUID(), bonus: randomUUID() },
        },
        {
          deposit: loaded.deposit.state,
          wallet: loaded.wallet.state,
          bonus: bonus === null || bonusPaymentId === null ? null : { paymentId: bonusPaymentId, state: bonus.state },
        },
      );
      const result: CardTopUpSettlement = {
        paymentId: deposit.paymentId,
        status: card.depositAfter?.status ?? 'PENDING',
        creditedMinor: card.creditedMinor,
      };
      return { events: { deposit: card.payment, wallet: card.wallet, bonus: card.bonus }, result };
    };
    const streams = { deposit: paymentStreams.ref(deposit.paymentId), wallet: walletStreams.ref(deposit.userUuid) };
    if (bonusPaymentId === null) {
      const { result } = await this.pipeline.run({
        ...origin,
        streams,
        decide: (loaded, stamp) => {
          const { events, result } = decide(loaded, null, stamp);
          return { events: { deposit: events.deposit, wallet: events.wallet }, result };
        },
      });
      return result;
    }
    const { result } = await this.pipeline.run({
      ...origin,
      streams: { ...streams, bonus: paymentStreams.ref(bonusPaymentId) },
      decide: (loaded, stamp) => decide(loaded, loaded.bonus, stamp),
    });
    return result;
  }
}
