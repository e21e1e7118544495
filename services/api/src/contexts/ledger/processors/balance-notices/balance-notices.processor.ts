import type { NotificationPreferenceKind, TransferReceivedData } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { CommittedEvent } from '../../../../platform/event-store/event-store.port';
import { type OutboxMail } from '../../../../platform/mail';
import type { Processor } from '../../../../platform/projections';
import { fullNameOf, type UserReader, type UserView } from '../../../identity';
import { type NotificationDraft, preferencesOf, type TelegramNotice, deliverNotices } from '../../../notifications';
import {
  type BalanceEntry,
  balanceMovements,
  lowBalanceCrossings,
  lowBalanceTopUpMinor,
} from '../../domain/balance-notices';
import { WALLET_EVENT_TYPES } from '../../domain/ledger.events';
import { bigintToNumber } from '../../infrastructure/bigint';
import {
  LOW_BALANCE_MAIL_KIND,
  type LowBalanceMailPayload,
  TRANSFER_RECEIVED_MAIL_KIND,
  type TransferReceivedMailPayload,
} from '../../infrastructure/balance-notice-mails';

export const BALANCE_NOTICES_PROCESSOR = 'balance-notices';

/** One thing to tell one client, on the channels their preference for its kind names. */
interface Notice {
  preference: NotificationPreferenceKind;
  draft: NotificationDraft;
  mail: OutboxMail;
  telegram: TelegramNotice;
}

interface EntryRow {
  transaction_id: string;
  account: string;
  amount_minor: string;
  balance_after_minor: string;
}

/**
 * Tells clients what happened to their balance without them (ADR 0105), in the transaction that moves this
 * processor's checkpoint: a transfer another client sent them (`TransferReceived`, preference `transfers`), and a
 * balance that fell under their threshold (any wallet event whose transaction took it from at least the threshold to
 * under it, preference `low-balance`). Each is a portal notice and a mail under one occasion key named by the event, so
 * a batch handled again writes nothing twice. The balances are the ones the ledger's entries kept when the event was
 * booked, so a processor that runs late tells the balance of that moment; the threshold is the client's of now.
 * Deposits are told by the receipts processor, beside the receipt whose mail is theirs.
 */
export class BalanceNoticesProcessor implements Processor {
  readonly name = BALANCE_NOTICES_PROCESSOR;
  readonly handles = WALLET_EVENT_TYPES;

  constructor(
    private readonly users: UserReader,
    private readonly clock: { now(): Date },
  ) {}

  async handle(events: readonly CommittedEvent[], manager: EntityManager): Promise<void> {
    const transfers = events.filter((event) => event.type === 'TransferReceived');
    const movements = await this.movementsOf(events, manager);
    const thresholds = await preferencesOf(
      manager,
      movements.map((movement) => movement.userUuid),
    );
    const crossings = lowBalanceCrossings(
      movements,
      (userUuid) => thresholds.get(userUuid)?.lowBalanceThresholdMinor ?? null,
    );
    if (transfers.length === 0 && crossings.length === 0) return;

    const people = new Map(
      (
        await this.users.findByUuids([
          ...transfers.flatMap((event) => {
            const data = event.data as TransferReceivedData;
            return [data.userUuid, data.senderUuid];
          }),
          ...crossings.map((crossing) => crossing.userUuid),
        ])
      ).map((user) => [user.uuid, user]),
    );
    const notices: Notice[] = [];
    for (const event of transfers) {
      const data = event.data as TransferReceivedData;
      const recipient = people.get(data.userUuid);
      const sender = people.get(data.senderUuid);
      if (!recipient || !sender) continue;
      const senderName = fullNameOf(sender) || null;
      const occasionKey = `transfer-received:${event.eventId}`;
      const mail: TransferReceivedMailPayload = {
        userUuid: recipient.uuid,
        firstName: recipient.firstName,
        amountMinor: data.amountMinor,
        senderName,
        senderProfileId: sender.profileId,
        paymentId: data.inPaymentId,
      };
      notices.push({
        preference: 'transfers',
        draft: {
          occasionKey,
          userUuid: recipient.uuid,
          kind: 'transfer-received',
          params: {
            amountMinor: data.amountMinor,
            paymentId: data.inPaymentId,
            senderName,
            senderProfileId: sender.profileId,
            link: `/payments/${data.inPaymentId}`,
          },
        },
        mail: outboxMail(occasionKey, TRANSFER_RECEIVED_MAIL_KIND, recipient, { ...mail }),
        telegram: {
          dedupeKey: occasionKey,
          userUuid: recipient.uuid,
          kind: 'transfer-received',
          params: {
            amountMinor: data.amountMinor,
            senderName,
            senderProfileId: sender.profileId,
            link: `/payments/${data.inPaymentId}`,
          },
          language: recipient.language,
        },
      });
    }
    const eventOfTransaction = transactionEvents(events);
    for (const crossing of crossings) {
      const owner = people.get(crossing.userUuid);
      const event = eventOfTransaction.get(crossing.transactionId);
      if (!owner || !event) continue;
      const topUpMinor = lowBalanceTopUpMinor(crossing);
      const occasionKey = `low-balance:${event.eventId}:${owner.uuid}`;
      const mail: LowBalanceMailPayload = {
        userUuid: owner.uuid,
        firstName: owner.firstName,
        balanceMinor: crossing.afterMinor,
        thresholdMinor: crossing.thresholdMinor,
        topUpMinor,
      };
      notices.push({
        preference: 'low-balance',
        draft: {
          occasionKey,
          userUuid: owner.uuid,
          kind: 'low-balance',
          params: {
            balanceMinor: crossing.afterMinor,
            thresholdMinor: crossing.thresholdMinor,
            link: `/payments/deposit?amountMinor=${topUpMinor}`,
          },
        },
        mail: outboxMail(occasionKey, LOW_BALANCE_MAIL_KIND, owner, { ...mail }),
        telegram: {
          dedupeKey: occasionKey,
          userUuid: owner.uuid,
          kind: 'low-balance',
          params: {
            balanceMinor: crossing.afterMinor,
            thresholdMinor: crossing.thresholdMinor,
            link: `/payments/deposit?amountMinor=${topUpMinor}`,
          },
          language: owner.language,
        },
      });
    }
    // Each person's channels, once for the batch (ADR 0102): the portal notice, the mail and the Telegram message
    // under one key, in this checkpoint's transaction (ADR 0083, 0104).
    await deliverNotices(
      manager,
      notices.map((notice) => ({
        userUuid: notice.draft.userUuid,
        preference: notice.preference,
        portal: notice.draft,
        mail: notice.mail,
        telegram: notice.telegram,
      })),
      this.clock.now(),
    );
  }

  /** What each event's transaction did to the clients' balances, in the batch's order. */
  private async movementsOf(events: readonly CommittedEvent[], manager: EntityManager) {
    const transactionIds = [...transactionEvents(events).keys()];
    if (transactionIds.length === 0) return [];
    const rows: EntryRow[] = await manager.query(
      `SELECT transaction_id, account, amount_minor::text, balance_after_minor::text FROM ledger_entries
        WHERE transaction_id = ANY($1::uuid[]) AND account LIKE 'user:%' ORDER BY entry_id`,
      [transactionIds],
    );
    // Each movement carries its own before and after, so the crossings need no order across transactions.
    const entries: BalanceEntry[] = rows.map((row) => ({
      transactionId: row.transaction_id,
      account: row.account,
      amountMinor: bigintToNumber(row.amount_minor),
      balanceAfterMinor: bigintToNumber(row.balance_after_minor),
    }));
    return balanceMovements(entries);
  }
}

/** The events that book a transaction, by its id (a transfer's receipt books none: its `TransferSent` does). */
function transactionEvents(events: readonly CommittedEvent[]): Map<string, CommittedEvent> {
  const byTransaction = new Map<string, CommittedEvent>();
  for (const event of events) {
    const transaction = (event.data as { transaction?: { transactionId?: string } | null }).transaction;
    if (transaction?.transactionId) byTransaction.set(transaction.transactionId, event);
  }
  return byTransaction;
}

function outboxMail(dedupeKey: string, kind: string, owner: UserView, payload: Record<string, unknown>): OutboxMail {
  return { dedupeKey, kind, recipient: owner.email, language: owner.language, payload };
}
