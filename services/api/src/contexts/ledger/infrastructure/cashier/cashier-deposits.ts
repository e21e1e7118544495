import { Injectable, Logger } from '@nestjs/common';
import {
  CRYPTO_PAY_CURRENCIES,
  type CashierPaymentReportedData,
  type CryptoMethod,
  type CryptoDepositResponse,
  isCashierProviderStatus,
  minorToAmount,
  type PaymentRecordedData,
  type PaymentStatus,
} from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Actor, RequestContext } from '../../../../platform/auth';
import { CashierClient, CashierSettings, type NowPaymentsPayment } from '../../../../platform/cashier';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { type CashierReport, paymentDecider } from '../../domain/payment.decider';
import { CASHIER_ACCOUNT, walletDecider } from '../../domain/wallet.decider';
import { nextPaymentIds, paymentStreams, walletStreams } from '../ledger-streams';

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
 * when money arrived, the wallet credit from `world:cashier`). Idempotent by the provider payment id: a report that
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
  ) {}

  async open(
    actor: Actor,
    amountMinor: number,
    method: CryptoMethod,
    context: RequestContext,
  ): Promise<CryptoDepositResponse> {
    const payCurrency = CRYPTO_PAY_CURRENCIES[method];
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);
    const returnUrl = this.settings.returnUrl(paymentId);
    // The invoice comes first: a provider that does not answer leaves no PENDING payment behind.
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
    const { result } = await this.pipeline.run({
      context,
      streams: { payment: paymentStreams.ref(paymentId) },
      decide: ({ payment }, { at }) => {
        const createdAt = at.toISOString();
        const recorded: PaymentRecordedData = {
          paymentId,
          userUuid: actor.userUuid,
          userEmail: actor.email,
          type: 'DEPOSIT',
          method,
          aggregator: 'CASHIER',
          status: 'PENDING',
          amountMinor,
          currency: 'USD',
          comment: null,
          publicNote: null,
          counterAccount: CASHIER_ACCOUNT,
          correction: false,
          transferId: null,
          senderProfileId: null,
          recipientProfileId: null,
          discountPercent: 0,
          createdAt,
          // A crypto deposit earns no ambassador bonus yet: docs/adr/0028-crypto-cashier.md, Open.
          bonusPaymentId: null,
          bonusForPaymentId: null,
        };
        const events = paymentDecider.decide(
          {
            type: 'OpenCashierDeposit',
            payment: recorded,
            invoice: {
              paymentId,
              userUuid: actor.userUuid,
              provider: this.settings.provider,
              invoiceId,
              invoiceUrl: invoice.invoice_url,
              payCurrency,
              amountAskedMinor: amountMinor,
              openedAt: createdAt,
            },
          },
          payment.state,
        );
        return { events: { payment: events }, result: { paymentId, invoiceUrl: invoice.invoice_url } };
      },
    });
    return result;
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

  private async apply(
    row: CashierPaymentRow,
    report: CashierReport | null,
    source: CashierPaymentReportedData['source'],
    context: RequestContext,
    timeOutIfPending: boolean,
  ): Promise<CashierReportOutcome> {
    const paymentId = Number(row.payment_id);
    const userUuid = row.user_uuid;
    const { result } = await this.pipeline.run({
      context,
      streams: { wallet: walletStreams.ref(userUuid), payment: paymentStreams.ref(paymentId) },
      decide: ({ wallet, payment }, { at }) => {
        const paymentEvents = paymentDecider.decide(
          { type: 'ApplyCashierReport', paymentId, report, source, reportedAt: at.toISOString(), timeOutIfPending },
          payment.state,
        );
        const reported = paymentEvents.find((event) => event.type === 'CashierPaymentReported');
        const creditedMinor = reported?.type === 'CashierPaymentReported' ? reported.data.creditedMinor : 0;
        const walletEvents =
          creditedMinor > 0 && report
            ? walletDecider.decide(
                {
                  type: 'CreditCashierDeposit',
                  userUuid,
                  paymentId,
                  providerPaymentId: report.providerPaymentId,
                  amountMinor: creditedMinor,
                  transactionId: randomUUID(),
                },
                wallet.state,
              )
            : [];
        const status = reported?.type === 'CashierPaymentReported' ? reported.data.status : payment.state?.status;
        return {
          events: { payment: paymentEvents, wallet: walletEvents },
          result: { paymentId, status: status ?? 'PENDING', creditedMinor },
        };
      },
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
