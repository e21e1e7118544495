import { Inject, Injectable } from '@nestjs/common';
import type { UserRole } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Actor } from '../../../../platform/auth';
import { CardProvider } from '../../../../platform/card-provider';
import { type LoadedStream, type StreamRef } from '../../../../platform/commands';
import { APP_CONFIG, type AppConfig, RewardTiers } from '../../../../platform/config';
import { bookAmbassadorBonus, earnedAmbassadorBonus } from '../../domain/ambassador-bonus';
import type { PaymentEvent, WalletEvent } from '../../domain/ledger.events';
import { type CardReport, paymentDecider } from '../../domain/payment.decider';
import { pendingProviderDeposit } from '../../domain/provider-deposit';
import type { PaymentState } from '../../domain/payment.state';
import { STRIPE_ACCOUNT, walletDecider } from '../../domain/wallet.decider';
import type { WalletState } from '../../domain/wallet.state';
import { nextPaymentIds, paymentStreams, walletStreams } from '../../infrastructure/ledger-streams';

/** A card deposit as its webhook finds it: whose it is. */
export interface CardDepositRow {
  paymentId: number;
  userUuid: string;
}

/** A card deposit's checkout at the provider, before its payment is recorded. */
export interface OpenedCheckout {
  paymentId: number;
  owner: Actor;
  amountMinor: number;
  checkoutSessionId: string;
  url: string;
}

/** What a card report decided, and the deposit and wallet as they are after it (for what the same append adds). */
export interface CardReportDecision {
  payment: PaymentEvent[];
  wallet: WalletEvent[];
  /** The AMBASSADOR_BONUS payment's `PaymentRecorded`, when the credit earned one. */
  bonus: PaymentEvent[];
  creditedMinor: number;
  depositAfter: PaymentState | null;
  walletAfter: WalletState;
}

/**
 * The ledger's half of card checkout (docs/adr/0029-card-checkout.md): opening a card deposit with its checkout and
 * what it buys, and deciding what the provider's word about the checkout means for money: the payment's report and,
 * the first time it is paid, the credit from `world:stripe`. The subscriptions context names these streams beside
 * its own, so that the credit and the purchase it pays for are one append.
 */
@Injectable()
export class CardDeposits {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: CardProvider,
    private readonly tiers: RewardTiers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether a card provider is configured (`STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`). */
  get available(): boolean {
    return this.provider.available;
  }

  /**
   * The checkout of a card deposit of `amountMinor` about to be opened, asked of the provider before anything is
   * recorded: a provider that does not answer leaves no PENDING payment behind. The caller records the payment with
   * `decideOpened` in its own command, beside what the deposit pays for.
   */
  async openCheckout(command: { actor: Actor; amountMinor: number; productName: string }): Promise<OpenedCheckout> {
    const { actor, amountMinor, productName } = command;
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);
    const checkout = await this.provider.createCheckout({
      paymentId,
      amountMinor,
      productName,
      customerEmail: actor.email,
      successUrl: `${this.config.publicUrl}/paymentSuccess?paymentId=${paymentId}`,
      cancelUrl: `${this.config.publicUrl}/paymentFailed?paymentId=${paymentId}`,
    });
    return { paymentId, owner: actor, amountMinor, checkoutSessionId: checkout.checkoutSessionId, url: checkout.url };
  }

  /** `PaymentRecorded` (PENDING, STRIPE, CARD) and `CardCheckoutOpened`, on the deposit's payment stream. */
  decideOpened(checkout: OpenedCheckout, at: Date, state: PaymentState | null): PaymentEvent[] {
    const { paymentId, owner, amountMinor } = checkout;
    const createdAt = at.toISOString();
    const recorded = pendingProviderDeposit({
      paymentId,
      owner,
      method: 'CARD',
      aggregator: 'STRIPE',
      counterAccount: STRIPE_ACCOUNT,
      amountMinor,
      createdAt,
    });
    return paymentDecider.decide(
      {
        type: 'OpenCardCheckout',
        payment: recorded,
        checkout: {
          paymentId,
          userUuid: owner.userUuid,
          provider: 'STRIPE',
          checkoutSessionId: checkout.checkoutSessionId,
          checkoutUrl: checkout.url,
          amountAskedMinor: amountMinor,
          openedAt: createdAt,
        },
      },
      state,
    );
  }

  /** The card deposit a checkout session belongs to; null when it is none of ours. */
  async findByCheckout(checkoutSessionId: string, paymentId: number | null): Promise<CardDepositRow | null> {
    if (paymentId === null) return null;
    const rows: Array<{ payment_id: string; user_uuid: string }> = await this.dataSource.query(
      `SELECT payment_id::text, user_uuid::text FROM payments
        WHERE payment_id = $1 AND aggregator = 'STRIPE' AND card_checkout_session_id = $2`,
      [paymentId, checkoutSessionId],
    );
    const row = rows[0];
    return row ? { paymentId: Number(row.payment_id), userUuid: row.user_uuid } : null;
  }

  /**
   * A spare payment id for the bonus an AMBASSADOR's card deposit may earn when it is credited (named up front, like
   * every stream of the command; an unused id is a harmless gap); null for every other role.
   */
  async bonusPaymentIdFor(role: UserRole): Promise<number | null> {
    if (role !== 'AMBASSADOR') return null;
    const [spare] = await nextPaymentIds(this.dataSource.manager, 1);
    return spare;
  }

  bonusStream(bonusPaymentId: number): StreamRef<PaymentState | null, PaymentEvent> {
    return paymentStreams.ref(bonusPaymentId);
  }

  streams(deposit: CardDepositRow): {
    deposit: StreamRef<PaymentState | null, PaymentEvent>;
    wallet: StreamRef<WalletState, WalletEvent>;
  } {
    return { deposit: paymentStreams.ref(deposit.paymentId), wallet: walletStreams.ref(deposit.userUuid) };
  }

  /**
   * The report under the deposit's and the wallet's locks: the payment's `CardPaymentReported` and, the first time
   * the checkout is seen paid, the wallet's `CardDepositCredited`. An ambassador's credit also books the bonus its
   * tier earns (docs/product.md, Referrals and bonuses) on `bonus`, the spare payment stream named for it: the
   * AMBASSADOR_BONUS payment, `AmbassadorBonusCredited`, and the deposit's link to it in the report.
   */
  decideReport(
    deposit: LoadedStream<PaymentState | null>,
    wallet: LoadedStream<WalletState>,
    report: CardReport,
    at: Date,
    bonus: { role: UserRole; bonusPaymentId: number; stream: LoadedStream<PaymentState | null> } | null = null,
  ): CardReportDecision {
    const command = { type: 'ApplyCardReport' as const, report, reportedAt: at.toISOString() };
    let payment = paymentDecider.decide(command, deposit.state);
    const reported = payment.find((event) => event.type === 'CardPaymentReported');
    const creditedMinor = reported?.type === 'CardPaymentReported' ? reported.data.creditedMinor : 0;
    let depositAfter = payment.reduce(paymentDecider.evolve, deposit.state);
    if (creditedMinor === 0 || depositAfter === null)
      return { payment, wallet: [], bonus: [], creditedMinor, depositAfter, walletAfter: wallet.state };
    let walletEvents = walletDecider.decide(
      {
        type: 'CreditCardDeposit',
        userUuid: depositAfter.userUuid,
        paymentId: depositAfter.paymentId,
        providerPaymentId: depositAfter.card?.providerPaymentId ?? depositAfter.card?.checkoutSessionId ?? '',
        amountMinor: creditedMinor,
        transactionId: randomUUID(),
      },
      wallet.state,
    );
    let bonusEvents: PaymentEvent[] = [];
    const earned =
      bonus === null
        ? null
        : earnedAmbassadorBonus(
            { role: bonus.role, type: 'DEPOSIT', correction: false, amountMinor: creditedMinor },
            this.tiers.ambassadorBonus,
          );
    if (bonus !== null && earned !== null) {
      const booked = bookAmbassadorBonus(
        depositAfter,
        earned,
        { bonusPaymentId: bonus.bonusPaymentId, transactionId: randomUUID() },
        walletEvents.reduce(walletDecider.evolve, wallet.state),
      );
      walletEvents = [...walletEvents, ...booked.walletEvents];
      bonusEvents = paymentDecider.decide({ type: 'RecordPayment', payment: booked.bonus }, bonus.stream.state);
      payment = paymentDecider.decide({ ...command, bonusPaymentId: bonus.bonusPaymentId }, deposit.state);
      depositAfter = payment.reduce(paymentDecider.evolve, deposit.state);
    }
    return {
      payment,
      wallet: walletEvents,
      bonus: bonusEvents,
      creditedMinor,
      depositAfter,
      walletAfter: walletEvents.reduce(walletDecider.evolve, wallet.state),
    };
  }
}
