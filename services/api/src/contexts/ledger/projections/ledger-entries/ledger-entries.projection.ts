import { type LedgerTransaction, USER_ACCOUNT_PREFIX } from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import type { InlineProjection, RecordedEvent } from '../../../../platform/event-store/event-store.port';
import { RebuildMemory } from '../../../../platform/event-store/rebuild-memory';
import { WALLET_EVENT_TYPES, type WalletEvent, walletStreamId } from '../../domain/ledger.events';
import { walletHeadsBefore } from '../wallet-snapshots/wallet-snapshots.projection';
import { postingSides } from '../../domain/postings';
import { VOUCHER_FUNDING_EVENT_TYPES, type VoucherEvent } from '../../domain/voucher-batch.decider';
import { bigintToNumber } from '../../infrastructure/bigint';

export const LEDGER_ENTRIES_PROJECTION_NAME = 'ledger-entries';

interface EntryDraft {
  transactionId: string;
  postingIndex: number;
  account: string;
  counterAccount: string;
  amountMinor: number;
  balanceAfterMinor: number | null;
  paymentId: number | null;
  eventType: string;
  occurredAt: string;
  globalPosition: string;
}

/** One transaction to book, with the payment it belongs to (none for a voucher batch's funding). */
interface Booking {
  recorded: RecordedEvent;
  transaction: LedgerTransaction;
  paymentId: number | null;
}

interface KeptBalance {
  balanceMinor: number;
  updatedAt: string;
}

/** Rows per statement when a rebuild writes the balances it kept. */
const REBUILD_WRITE_CHUNK_ROWS = 5000;

/** The unique (transaction_id, posting_index, account) constraint turns a second booking into a failed append. */
const INSERT_ENTRIES = `INSERT INTO ledger_entries (transaction_id, posting_index, account, counter_account, amount_minor,
    balance_after_minor, payment_id, event_type, occurred_at, global_position)
  SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[],
    $8::text[], $9::timestamptz[], $10::bigint[])`;

function isUserAccount(account: string): boolean {
  return account.startsWith(USER_ACCOUNT_PREFIX);
}

/**
 * A money command loaded, under their locks, the wallets it appends to; a user account's balance is its wallet's
 * balance, so the starting balances need no read when every touched account's wallet is appended here from a head the
 * command loaded. Fills `balances` and answers true then; answers false (and leaves them) when one is missing.
 */
function balancesFromLoadedWallets(
  manager: EntityManager,
  events: readonly RecordedEvent[],
  userAccounts: readonly string[],
  balances: Map<string, number>,
): boolean {
  const heads = walletHeadsBefore(manager, events);
  if (!heads) return false;
  const found = new Map<string, number>();
  for (const account of userAccounts) {
    const head = heads.get(walletStreamId(account.slice(USER_ACCOUNT_PREFIX.length)));
    if (!head) return false;
    found.set(account, head.state.balanceMinor);
  }
  for (const [account, balanceMinor] of found) balances.set(account, balanceMinor);
  return true;
}

/**
 * Books every transaction's postings once, by the event that carries it (a transfer's receipt carries only its
 * transaction id): two entries per posting, with the running balance kept for `user:` accounts only, then the user
 * accounts' balances in `account_balances` (which the `User` payload reads through `LedgerUserBalances`). System
 * accounts get no running balance and no balance row, so deposits from many wallets never queue on one hot
 * `world:manual` row. One read and one write per append, however many events it carries.
 */
export class LedgerEntriesProjection implements InlineProjection {
  readonly name = LEDGER_ENTRIES_PROJECTION_NAME;
  /** A voucher batch's funding books system accounts only; its redemptions are wallet events. */
  readonly handles = [...WALLET_EVENT_TYPES, ...VOUCHER_FUNDING_EVENT_TYPES];
  readonly tables = ['ledger_entries', 'account_balances'];
  /** Balances kept in memory while a rebuild runs (see `InlineProjection.beginRebuild`); null otherwise. */
  private readonly rebuilding = new RebuildMemory<Map<string, KeptBalance>>();

  async apply(events: readonly RecordedEvent[], manager: EntityManager): Promise<void> {
    const bookings = events.flatMap((recorded): Booking[] => {
      const event = { type: recorded.type, data: recorded.data } as WalletEvent | VoucherEvent;
      if (event.type === 'VoucherBatchSold' || event.type === 'VoucherBatchGivenAway')
        return event.data.transaction === null
          ? [] // a day batch given away moves no money
          : [{ recorded, transaction: event.data.transaction, paymentId: null }];
      if (event.type === 'VoucherBatchGenerated' || event.type === 'VoucherCodeRedeemed') return [];
      if (event.type === 'TransferReceived') return [];
      const paymentId = event.type === 'TransferSent' ? event.data.outPaymentId : event.data.paymentId;
      return [{ recorded, transaction: event.data.transaction, paymentId }];
    });
    if (bookings.length === 0) return;

    const userAccounts = [
      ...new Set(
        bookings.flatMap(({ transaction }) =>
          transaction.postings.flatMap((posting) => [posting.source, posting.destination]),
        ),
      ),
    ]
      .filter(isUserAccount)
      .sort();
    const balances = new Map<string, number>(userAccounts.map((account) => [account, 0]));
    const kept = this.rebuilding.of(manager);
    if (kept) {
      for (const account of userAccounts) balances.set(account, kept.get(account)?.balanceMinor ?? 0);
    } else if (!balancesFromLoadedWallets(manager, events, userAccounts, balances)) {
      const rows: Array<{ account: string; balance_minor: string }> = await manager.query(
        'SELECT account, balance_minor FROM account_balances WHERE account = ANY($1::text[])',
        [userAccounts],
      );
      for (const row of rows) balances.set(row.account, bigintToNumber(row.balance_minor));
    }

    const drafts: EntryDraft[] = [];
    let lastOccurredAt = '';
    for (const { recorded, transaction, paymentId } of bookings) {
      const occurredAt = recorded.metadata?.occurredAt ?? recorded.recordedAt.toISOString();
      lastOccurredAt = occurredAt;
      transaction.postings.forEach((posting, postingIndex) => {
        for (const { account, counterAccount, amountMinor } of postingSides(posting)) {
          let balanceAfterMinor: number | null = null;
          if (isUserAccount(account)) {
            balanceAfterMinor = (balances.get(account) ?? 0) + amountMinor;
            balances.set(account, balanceAfterMinor);
          }
          drafts.push({
            transactionId: transaction.transactionId,
            postingIndex,
            account,
            counterAccount,
            amountMinor,
            balanceAfterMinor,
            paymentId,
            eventType: recorded.type,
            occurredAt,
            globalPosition: recorded.globalPosition,
          });
        }
      });
    }

    const entryColumns = [
      drafts.map((draft) => draft.transactionId),
      drafts.map((draft) => draft.postingIndex),
      drafts.map((draft) => draft.account),
      drafts.map((draft) => draft.counterAccount),
      drafts.map((draft) => draft.amountMinor),
      drafts.map((draft) => draft.balanceAfterMinor),
      drafts.map((draft) => draft.paymentId),
      drafts.map((draft) => draft.eventType),
      drafts.map((draft) => draft.occurredAt),
      drafts.map((draft) => draft.globalPosition),
    ];
    if (kept) {
      await manager.query(INSERT_ENTRIES, entryColumns);
      for (const account of userAccounts) {
        kept.set(account, { balanceMinor: balances.get(account) ?? 0, updatedAt: lastOccurredAt });
      }
      return;
    }
    // Entries and balances go in one statement: every round trip here is paid by every money command.
    await manager.query(
      `WITH entries AS (${INSERT_ENTRIES} RETURNING 1)
       INSERT INTO account_balances (account, balance_minor, updated_at)
       SELECT account, balance_minor, $13 FROM unnest($11::text[], $12::bigint[]) AS b(account, balance_minor)
       ON CONFLICT (account) DO UPDATE SET balance_minor = EXCLUDED.balance_minor, updated_at = EXCLUDED.updated_at`,
      [...entryColumns, userAccounts, userAccounts.map((account) => balances.get(account) ?? 0), lastOccurredAt],
    );
  }

  beginRebuild(manager: EntityManager): void {
    this.rebuilding.begin(manager, new Map());
  }

  /** Every user account's final balance, written once (in chunks) at the end of a rebuild. */
  async endRebuild(manager: EntityManager, write: boolean): Promise<void> {
    const balances = [...(this.rebuilding.end(manager) ?? new Map<string, KeptBalance>())];
    if (!write) return;
    for (let start = 0; start < balances.length; start += REBUILD_WRITE_CHUNK_ROWS) {
      const chunk = balances.slice(start, start + REBUILD_WRITE_CHUNK_ROWS);
      await manager.query(
        `INSERT INTO account_balances (account, balance_minor, updated_at)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[])`,
        [
          chunk.map(([account]) => account),
          chunk.map(([, kept]) => kept.balanceMinor),
          chunk.map(([, kept]) => kept.updatedAt),
        ],
      );
    }
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('TRUNCATE ledger_entries, account_balances RESTART IDENTITY');
  }
}
