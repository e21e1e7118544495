import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CASHIER_DEFAULTS,
  CASHIER_STATUS_MAPPING,
  CRYPTO_PAY_CURRENCIES,
  type CashierPaymentReportedData,
  type CryptoMethod,
  type CryptoDepositResponse,
  isCashierProviderStatus,
  minorToAmount,
  type PaymentStatus,
  type UserRole,
} from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Actor, RequestContext } from '../../../../platform/auth';
import { CashierClient, CashierSettings, type NowPaymentsPayment } from '../../../../platform/cashier';
import { CommandPipeline, type CommandStamp, type LoadedStream } from '../../../../platform/commands';
import { APP_CONFIG, type AppConfig, RewardTiers } from '../../../../platform/config';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import { ApiError } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { bonusOnCashierCredit } from '../../domain/ambassador-bonus';
import { assertDepositAmountInRange } from '../deposit-limits';
import type { PaymentEvent, WalletEvent } from '../../domain/ledger.events';
import { type CashierReport, paymentDecider } from '../../domain/payment.decider';
import { openCryptoDeposit, type OpenedInvoice } from '../../domain/deposits';
import type { PaymentState } from '../../domain/payment.state';
import { cashierCounterAccount, walletDecider } from '../../domain/wallet.decider';
import type { WalletState } from '../../domain/wallet.state';
import { nextPaymentIds, paymentStreams, walletStreams } from '../../infrastructure/ledger-streams';

/**
 * How many times a report is decided again when a concurrent report on the same deposit booked its first bonus
 * between the read that named the streams and the locks: each round names the stream that read found.
 */
const BONUS_STREAM_ROUNDS = 3;

/** What applying one provider report did. */
export interface CashierReportOutcome {
  paymentId: number;
  status: PaymentStatus;
  /** What this report put on the client's balance, in cents (zero for a repeat or a report with nothing new). */
  creditedMinor: number;
}

interface CashierPaymentRow {
  payment_id: string;
  user_uuid: string;
  cashier_pay_currency: string | null;
  amount_asked_minor: string | null;
  provider_payment_id: string | null;
}

/**
 * The ledger's half of the cashier adapter (docs/adr/0028-crypto-cashier.md): opening a deposit with its invoice,
 * and turning what the provider's API says about a payment into one atomic pipeline run (the payment's report and,
 * when money arrived, the wallet credit from `world:cashier`, or `world:sandbox-cashier` for a sandbox invoice). Idempotent by the provider payment id: a report that
 * changes nothing appends nothing, and a credit is always the growth of what that provider payment brought.
 */
@Injectable()
export class CashierDeposits {
  private readonly logger = new Logger('CashierDeposits');

  constructor(
    private readonly dataSource: DataSource,
    private readonly pipeline: CommandPipeline,
    private readonly client: CashierClient,
    private readonly settings: CashierSettings,
    private readonly store: EventStore,
    private readonly users: UserReader,
    private readonly tiers: RewardTiers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * What every deposit must satisfy before an invoice is asked for: an amount within the configured limits
   * (`error.deposit.amount.out.of.range` with them) and fewer unpaid deposits than the cap.
   */
  async assertCanOpen(userUuid: string, amountMinor: number): Promise<void> {
    assertDepositAmountInRange(this.config, amountMinor);
    if ((await this.pendingCount(userUuid)) >= CASHIER_DEFAULTS.pendingDepositsPerUserMax)
      throw new ApiError('error.cashier.too.many.pending');
  }

  /** The smallest deposit the cashier takes, in cents. */
  minimumMinor(): number {
    return this.config.cashierDepositMinMinor;
  }

  /** Opens a plain deposit (a top-up): the invoice at the cashier, then the PENDING payment with it. */
  async open(
    actor: Actor,
    amountMinor: number,
    method: CryptoMethod,
    context: RequestContext,
  ): Promise<CryptoDepositResponse> {
    const invoice = await this.openInvoice(actor, amountMinor, method);
    const { result } = await this.pipeline.run({
      context,
      streams: { payment: paymentStreams.ref(invoice.paymentId) },
      decide: ({ payment }, { at }) => ({
        events: { payment: openCryptoDeposit(invoice, at, payment.state) },
        result: { paymentId: invoice.paymentId, invoiceUrl: invoice.invoiceUrl },
      }),
    });
    return result;
  }

  /**
   * The invoice of a deposit about to be opened, asked of the cashier before anything is recorded: a provider that
   * does not answer leaves no PENDING payment behind. The caller checks `assertCanOpen` first, and records the
   * payment with `openCryptoDeposit` (`domain/deposits.ts`) in its own command (a deposit that pays for a purchase names the purchase's stream
   * beside it).
   */
  async openInvoice(actor: Actor, amountMinor: number, method: CryptoMethod): Promise<OpenedInvoice> {
    const payCurrency = CRYPTO_PAY_CURRENCIES[method];
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);
    const returnUrl = this.settings.returnUrl(paymentId);
    const invoice = await this.client.createInvoice({
      price_amount: minorToAmount(amountMinor),
      price_currency: 'usd',
      pay_currency: payCurrency,
      order_id: String(paymentId),
      order_description: `Kupa deposit ${paymentId}`,
      ipn_callback_url: this.settings.ipnCallbackUrl(),
      success_url: returnUrl,
      cancel_url: returnUrl,
    });
    const invoiceId = invoice?.id === undefined || invoice.id === null ? '' : String(invoice.id);
    if (invoiceId === '' || typeof invoice.invoice_url !== 'string' || !/^https?:\/\//.test(invoice.invoice_url)) {
      this.logger.warn(`The cashier answered an invoice without an id or an address for payment ${paymentId}`);
      throw new ApiError('error.cashier.unavailable');
    }
    return {
      paymentId,
      owner: actor,
      amountMinor,
      method,
      invoiceId,
      invoiceUrl: invoice.invoice_url,
      payCurrency,
      provider: this.settings.provider,
      counterAccount: cashierCounterAccount(this.settings.sandbox),
    };
  }

  /** How many of the user's crypto deposits wait for money. */
  async pendingCount(userUuid: string): Promise<number> {
    const rows: Array<{ count: string }> = await this.dataSource.query(
      `SELECT count(*)::text AS count FROM payments WHERE user_uuid = $1 AND aggregator = 'CASHIER' AND status = 'PENDING'`,
      [userUuid],
    );
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * Asks the provider about one of its payments and applies the answer: what an IPN leads to (the IPN only says
   * which payment to ask about). The provider's answer must name one of our crypto deposits and agree with its
   * invoice (price and coin), or nothing is applied.
   */
  async checkProviderPayment(
    providerPaymentId: string,
    source: CashierPaymentReportedData['source'],
    context: RequestContext,
    timeOutIfPending = false,
  ): Promise<CashierReportOutcome> {
    const answer = await this.client.getPayment(providerPaymentId);
    const row = await this.depositOf(answer);
    return this.apply(row, reportOf(answer), source, context, timeOutIfPending);
  }

  /** The janitor's way for a deposit on which the provider never reported a payment: only the clock speaks. */
  async timeOutUnreported(paymentId: number, context: RequestContext): Promise<CashierReportOutcome> {
    const row = await this.paymentRow(paymentId);
    if (!row) throw new ApiError('error.payment.not.found');
    return this.apply(row, null, 'JANITOR', context, true);
  }

  /**
   * One report, applied under the deposit's and the wallet's locks. When the owner is an AMBASSADOR and the report may
   * credit money, the bonus's payment stream is named too: the deposit's bonus when it has one, else a spare id for a
   * first bonus (an unused id is a harmless gap). The role is identity's, read before the locks, as for a manual
   * deposit: a role changed at the very instant money arrives may apply to it or not.
   */
  private async apply(
    row: CashierPaymentRow,
    report: CashierReport | null,
    source: CashierPaymentReportedData['source'],
    context: RequestContext,
    timeOutIfPending: boolean,
  ): Promise<CashierReportOutcome> {
    const paymentId = Number(row.payment_id);
    const userUuid = row.user_uuid;
    const owner = await this.users.findByUuid(userUuid);
    const role = owner?.role ?? 'CLIENT';
    for (let round = 1; ; round += 1) {
      const bonusPaymentId = role === 'AMBASSADOR' ? await this.bonusStreamFor(paymentId, report) : null;
      const outcome = await this.applyOnce(
        { paymentId, userUuid, role, bonusPaymentId },
        report,
        source,
        context,
        timeOutIfPending,
      );
      if (outcome !== 'stream-needed') return outcome;
      if (round >= BONUS_STREAM_ROUNDS) throw new Error(`Deposit ${paymentId}: its bonus stream kept changing`);
    }
  }

  /**
   * Which bonus stream a report on the deposit needs, read without locks: none when the report cannot credit money
   * (nothing new can then earn a bonus), else the deposit's bonus or a spare id.
   */
  private async bonusStreamFor(paymentId: number, report: CashierReport | null): Promise<number | null> {
    if (report === null || CASHIER_STATUS_MAPPING[report.providerStatus] !== 'SUCCESS') return null;
    const state = await paymentStreams.currentState(this.store, paymentId);
    if (state?.bonusPaymentId) return state.bonusPaymentId;
    const [spare] = await nextPaymentIds(this.dataSource.manager, 1);
    return spare;
  }

  private async applyOnce(
    deposit: { paymentId: number; userUuid: string; role: UserRole; bonusPaymentId: number | null },
    report: CashierReport | null,
    source: CashierPaymentReportedData['source'],
    context: RequestContext,
    timeOutIfPending: boolean,
  ): Promise<CashierReportOutcome | 'stream-needed'> {
    const { paymentId, userUuid, role, bonusPaymentId } = deposit;
    const decide = (
      wallet: LoadedStream<WalletState>,
      payment: LoadedStream<PaymentState | null>,
      bonus: LoadedStream<PaymentState | null> | null,
      { at }: CommandStamp,
    ): {
      events: { wallet?: WalletEvent[]; payment?: PaymentEvent[]; bonus?: PaymentEvent[] };
      result: CashierReportOutcome | 'stream-needed';
    } => {
      const reportedAt = at.toISOString();
      const command = {
        type: 'ApplyCashierReport' as const,
        paymentId,
        report,
        source,
        reportedAt,
        timeOutIfPending,
        maxCreditMinor: this.config.cashierDepositMaxMinor,
      };
      let paymentEvents = paymentDecider.decide(command, payment.state);
      const reported = paymentEvents.find((event) => event.type === 'CashierPaymentReported');
      const creditedMinor = reported?.type === 'CashierPaymentReported' ? reported.data.creditedMinor : 0;
      const status = reported?.type === 'CashierPaymentReported' ? reported.data.status : payment.state?.status;
      const outcome: CashierReportOutcome = { paymentId, status: status ?? 'PENDING', creditedMinor };
      if (creditedMinor === 0 || report === null)
        return { events: { payment: paymentEvents, wallet: [], bonus: [] }, result: outcome };
      let walletEvents = walletDecider.decide(
        {
          type: 'CreditCashierDeposit',
          userUuid,
          paymentId,
          providerPaymentId: report.providerPaymentId,
          amountMinor: creditedMinor,
          transactionId: randomUUID(),
          // The invoice says where the money came from, whatever the cashier is now.
          sandbox: payment.state?.cashier?.provider === 'SANDBOX',
        },
        wallet.state,
      );
      const earned = bonusOnCashierCredit({
        deposit: paymentEvents.reduce(paymentDecider.evolve, payment.state) as PaymentState,
        role,
        tiers: this.tiers.ambassadorBonus,
        bonus: bonusPaymentId !== null && bonus !== null ? { paymentId: bonusPaymentId, state: bonus.state } : null,
        transactionId: randomUUID(),
        at: reportedAt,
        walletAfterDeposit: walletEvents.reduce(walletDecider.evolve, wallet.state),
      });
      if (earned.kind === 'stream-needed') return { events: {}, result: 'stream-needed' };
      if (earned.kind === 'none')
        return { events: { payment: paymentEvents, wallet: walletEvents, bonus: [] }, result: outcome };
      walletEvents = [...walletEvents, ...earned.walletEvents];
      if (earned.firstBonusPaymentId !== null)
        paymentEvents = paymentDecider.decide(
          { ...command, bonusPaymentId: earned.firstBonusPaymentId },
          payment.state,
        );
      return { events: { payment: paymentEvents, wallet: walletEvents, bonus: earned.bonusEvents }, result: outcome };
    };

    const wallet = walletStreams.ref(userUuid);
    const payment = paymentStreams.ref(paymentId);
    if (bonusPaymentId === null) {
      const { result } = await this.pipeline.run({
        context,
        streams: { wallet, payment },
        decide: (loaded, stamp) => {
          const { events, result } = decide(loaded.wallet, loaded.payment, null, stamp);
          return { events: { wallet: events.wallet, payment: events.payment }, result };
        },
      });
      return result;
    }
    const { result } = await this.pipeline.run({
      context,
      streams: { wallet, payment, bonus: paymentStreams.ref(bonusPaymentId) },
      decide: (loaded, stamp) => decide(loaded.wallet, loaded.payment, loaded.bonus, stamp),
    });
    return result;
  }

  private async paymentRow(paymentId: number): Promise<CashierPaymentRow | null> {
    const rows: CashierPaymentRow[] = await this.dataSource.query(
      `SELECT payment_id::text, user_uuid::text, cashier_pay_currency, amount_asked_minor::text, provider_payment_id
         FROM payments WHERE payment_id = $1 AND aggregator = 'CASHIER'`,
      [paymentId],
    );
    return rows[0] ?? null;
  }

  private async depositOf(answer: NowPaymentsPayment): Promise<CashierPaymentRow> {
    const paymentId = Number(answer?.order_id);
    const row = Number.isSafeInteger(paymentId) && paymentId > 0 ? await this.paymentRow(paymentId) : null;
    const agrees =
      row !== null &&
      row.cashier_pay_currency === String(answer.pay_currency).toLowerCase() &&
      Math.round(Number(answer.price_amount) * 100) === Number(row.amount_asked_minor);
    if (!agrees) {
      this.logger.warn(`The cashier's payment ${String(answer?.payment_id)} names no crypto deposit of ours`);
      throw new ApiError('error.cashier.notification.invalid');
    }
    return row;
  }
}

/** The provider's payment as the decider reads it; anything unreadable names no payment of ours. */
function reportOf(answer: NowPaymentsPayment): CashierReport {
  const providerPaymentId = String(answer.payment_id ?? '');
  if (!/^[0-9A-Za-z_-]{1,64}$/.test(providerPaymentId) || !isCashierProviderStatus(answer.payment_status))
    throw new ApiError('error.cashier.notification.invalid');
  return {
    providerPaymentId,
    providerStatus: answer.payment_status,
    payAmount: String(answer.pay_amount ?? ''),
    actuallyPaid: String(answer.actually_paid ?? 0),
  };
}
