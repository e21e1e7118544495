import { isOneOf, type Language, PAYMENT_METHODS } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { type OutboxMail } from '../../../../platform/mail';
import type { Processor } from '../../../../platform/projections';
import type { CommittedEvent } from '../../../../platform/event-store/event-store.port';
import { fullNameOf, type UserReader } from '../../../identity';
import {
  isLargeDepositAlert,
  type NotificationDraft,
  type StaffAlert,
  type StaffAlerts,
  type TelegramNotice,
  deliverNotices,
} from '../../../notifications';
import {
  PROMO_CODE_REDEEMED,
  promoCodeOf,
  RECEIPT_EVENT_TYPES,
  type ReceiptEvent,
  type ReceiptFacts,
  receiptFactsOf,
} from '../../domain/receipts';
import type { SubscriptionPaymentDetails } from '../../queries/payment-rows/subscription-payment-details.port';
import { RECEIPT_MAIL_KIND, type ReceiptMailPayload } from '../../infrastructure/receipt-mail';

export const RECEIPTS_PROCESSOR = 'receipts';

/** What one receipt asks to tell its client: the mail, and for money that arrived by itself the portal notice. */
interface Issued {
  mail: OutboxMail;
  notice: NotificationDraft | null;
  /** Money that arrived by itself is told as its arrival, the rest as the receipt; under the receipt's key either way. */
  telegram: TelegramNotice;
  /** A large deposit credited: a staff alert (ADR 0106), under the causing event. */
  alert: StaffAlert | null;
}

interface PaymentFacts {
  method: string;
  currency: string;
  amount_asked_minor: string | null;
  plan_name: string | null;
  promo_code: string | null;
}

/**
 * Issues the receipts (ADR 0097): for each event that earns one, in commit order, the next number of the one
 * `receipt_numbers` row and a `receipts` row, in the transaction that moves this processor's checkpoint. One
 * processor leads at a time (its advisory lock) and a rolled-back batch rolls its numbers back with it, so the numbers
 * are unique and without gaps whatever the payments did side by side; a payment that failed appended no such event.
 * Each receipt also records the mail that confirms the payment, linking to it, in the client's language. A deposit
 * that a provider or staff credited (crypto, card, manual; not a voucher the client just typed) is also a
 * `deposit-credited` notice in the portal (ADR 0105), under the receipt's key: the receipt's mail is its mail, so the
 * client gets one mail per deposit and staff see that mail's state beside the notice. A deposit credited of at least
 * `STAFF_ALERT_LARGE_DEPOSIT_MINOR`, whatever its method, is also a staff alert (ADR 0106), in the same transaction.
 */
export class ReceiptsProcessor implements Processor {
  readonly name = RECEIPTS_PROCESSOR;
  readonly handles = [...RECEIPT_EVENT_TYPES, PROMO_CODE_REDEEMED] as const;

  constructor(
    private readonly users: UserReader,
    private readonly subscriptionPayments: SubscriptionPaymentDetails,
    private readonly clock: { now(): Date },
    private readonly staffAlerts: StaffAlerts,
    private readonly largeDepositAlertMinor: number,
  ) {}

  async handle(events: readonly CommittedEvent[], manager: EntityManager): Promise<void> {
    // A purchase's promo code is named by a PromoCodeRedeemed of the same append.
    const promoCodes = new Map<number, string>();
    for (const event of events) {
      if (event.type !== PROMO_CODE_REDEEMED) continue;
      const promo = promoCodeOf(event.data as Parameters<typeof promoCodeOf>[0]);
      promoCodes.set(promo.paymentId, promo.code);
    }
    const issued: Issued[] = [];
    for (const event of events) {
      if (event.type === PROMO_CODE_REDEEMED) continue;
      const facts = receiptFactsOf({ type: event.type, data: event.data } as ReceiptEvent);
      if (!facts) continue;
      const one = await this.issue(event, facts, promoCodes.get(facts.paymentId) ?? null, manager);
      if (one) issued.push(one);
    }
    // The receipt is issued whatever the client chose; its mail goes only to those who keep `payments` by e-mail, its
    // notice only to those who keep it in the portal, its Telegram message to those who keep it in a linked chat
    // (ADR 0102, 0104, 0105), asked once for the batch.
    const now = this.clock.now();
    await deliverNotices(
      manager,
      issued.map(({ mail, notice, telegram }) => ({
        userUuid: telegram.userUuid,
        preference: 'payments',
        portal: notice,
        mail,
        telegram,
      })),
      now,
    );
    await this.staffAlerts.record(
      manager,
      issued.flatMap(({ alert }) => (alert ? [alert] : [])),
      now,
    );
  }

  private async issue(
    event: CommittedEvent,
    facts: ReceiptFacts,
    promoCode: string | null,
    manager: EntityManager,
  ): Promise<Issued | null> {
    const known: unknown[] = await manager.query('SELECT 1 FROM receipts WHERE source_event_id = $1', [event.eventId]);
    if (known.length > 0) return null;
    const [payment]: PaymentFacts[] = await manager.query(
      `SELECT p.method, p.currency, p.amount_asked_minor::text, sp.plan_name, sp.promo_code
         FROM payments p LEFT JOIN (${this.subscriptionPayments.relation}) sp ON sp.payment_id = p.payment_id
        WHERE p.payment_id = $1`,
      [facts.paymentId],
    );
    const account = `user:${facts.userUuid}`;
    // A deposit's entry by its transaction (`ledger_entries_booked_once`). A purchase's event names no transaction:
    // its charge is booked in the same append, so under the same stamp, and is found by the account's time index
    // (`ledger_entries_account_time`) among the client's entries of that instant; there is no index by payment id,
    // which every transfer would write for this read alone (docs/adr/0129).
    const [balance]: Array<{ balance_after_minor: string | null }> = facts.transactionId
      ? await manager.query(
          'SELECT balance_after_minor::text FROM ledger_entries WHERE transaction_id = $1 AND account = $2 LIMIT 1',
          [facts.transactionId, account],
        )
      : await manager.query(
          `SELECT balance_after_minor::text FROM ledger_entries
            WHERE account = $1 AND occurred_at = $2::timestamptz AND payment_id = $3
            ORDER BY entry_id DESC LIMIT 1`,
          // The instant the ledger's projection books an event at: its stamp, or its append's time without one.
          [account, event.metadata.occurredAt ?? event.recordedAt.toISOString(), facts.paymentId],
        );
    const user = await this.users.findByUuid(facts.userUuid);
    const [{ last_number: number }]: Array<{ last_number: string }> = await manager.query(
      // In a WITH, so that the driver answers rows as for a SELECT (an UPDATE answers rows and a count).
      `WITH moved AS (UPDATE receipt_numbers SET last_number = last_number + 1 RETURNING last_number)
       SELECT last_number::text FROM moved`,
    );
    const method = facts.voucher ? 'VOUCHER' : (payment?.method ?? 'BALANCE');
    await manager.query(
      `INSERT INTO receipts (number, source_event_id, user_uuid, kind, method, payment_id, issued_at, client_name,
         client_email, profile_id, currency, amount_minor, amount_asked_minor, list_price_minor, discount_minor,
         discount_kind, discount_percent, promo_code, plan_name, balance_after_minor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
      [
        number,
        event.eventId,
        facts.userUuid,
        facts.kind,
        method,
        facts.paymentId,
        // The instant the command stamped under its locks: the payment's own time (a seeded history's too).
        event.metadata.occurredAt,
        user ? fullNameOf(user) : '',
        user?.email ?? '',
        user?.profileId ?? null,
        payment?.currency ?? 'USD',
        facts.amountMinor,
        // What the crypto invoice asked for belongs on a crypto deposit's receipt only.
        facts.kind === 'DEPOSIT' && method.startsWith('CRYPTO_') ? (payment?.amount_asked_minor ?? null) : null,
        facts.listPriceMinor,
        facts.discountMinor,
        facts.discountKind,
        facts.discountPercent,
        facts.discountKind === 'PROMO_CODE' ? (promoCode ?? payment?.promo_code ?? null) : null,
        facts.planName ?? payment?.plan_name ?? null,
        balance?.balance_after_minor ?? null,
      ],
    );
    if (!user) return null;
    const payload: ReceiptMailPayload = { number: Number(number), userUuid: user.uuid, firstName: user.firstName };
    const dedupeKey = `receipt:${number}`;
    const mail: OutboxMail = {
      dedupeKey,
      kind: RECEIPT_MAIL_KIND,
      recipient: user.email,
      language: user.language as Language,
      payload: { ...payload },
    };
    // A voucher's money was redeemed by the client on the screen that says so; the others arrive on their own.
    const credited = facts.kind === 'DEPOSIT' && !facts.voucher && isOneOf(PAYMENT_METHODS, method);
    const notice: NotificationDraft | null = credited
      ? {
          occasionKey: dedupeKey,
          userUuid: user.uuid,
          kind: 'deposit-credited',
          params: {
            amountMinor: facts.amountMinor,
            method,
            paymentId: facts.paymentId,
            link: `/payments/${facts.paymentId}`,
          },
        }
      : null;
    const telegram: TelegramNotice = {
      dedupeKey,
      userUuid: user.uuid,
      kind: credited ? 'deposit-credited' : 'receipt',
      params: {
        number: Number(number),
        receiptKind: facts.kind,
        amountMinor: facts.amountMinor,
        link: credited ? `/payments/${facts.paymentId}` : `/receipts/${number}`,
      },
      language: user.language as Language,
    };
    const alert: StaffAlert | null =
      credited && isLargeDepositAlert(facts.amountMinor, this.largeDepositAlertMinor)
        ? {
            key: `large-deposit:${event.eventId}`,
            kind: 'staff-large-deposit',
            params: {
              amountMinor: facts.amountMinor,
              method,
              clientName: fullNameOf(user) || null,
              clientProfileId: user.profileId,
              link: `/admin/payments/${facts.paymentId}/show`,
            },
          }
        : null;
    return { mail, notice, telegram, alert };
  }
}
