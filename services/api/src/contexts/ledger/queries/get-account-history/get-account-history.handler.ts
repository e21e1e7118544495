import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type AccountHistory,
  type AccountHolder,
  LIMITS,
  type LedgerEntry,
  minorToAmount,
  USER_ACCOUNT_PREFIX,
} from '@kupa/proto';
import type { DataSource } from 'typeorm';
import { ReadSource } from '../../../../platform/database/read-replica';
import { ApiError, toPage } from '../../../../platform/http';
import { fullNameOf, UserReader, type UserView } from '../../../identity';
import { GetAccountHistoryQuery } from './get-account-history.query';

/** Postings as seen from one account, newest first; the entry id orders postings of one instant as booked. */
const NEWEST_FIRST = 'occurred_at DESC, entry_id DESC';

interface EntryRow {
  transaction_id: string;
  payment_id: string | null;
  account: string;
  counter_account: string;
  amount_minor: string;
  balance_after_minor: string;
  occurred_at: Date;
  event_type: string;
}

@QueryHandler(GetAccountHistoryQuery)
export class GetAccountHistoryHandler implements IQueryHandler<GetAccountHistoryQuery, AccountHistory> {
  constructor(
    private readonly reads: ReadSource,
    private readonly users: UserReader,
  ) {}

  async execute({ account, asOf, page, size }: GetAccountHistoryQuery): Promise<AccountHistory> {
    const isUserAccount = account.startsWith(USER_ACCOUNT_PREFIX);
    const holder = isUserAccount ? await this.holderOf(account.slice(USER_ACCOUNT_PREFIX.length)) : null;
    const offset = page * size;
    // All reads share one REPEATABLE READ snapshot, so the balance and the page describe the same history even
    // while postings are being booked.
    const history = await this.reads.run('account-history', (db) =>
      db.transaction('REPEATABLE READ', async (manager) => {
        const balanceMinor = await this.balanceAt(manager, account, asOf, isUserAccount);
        // A system account collects a posting from every payment: count and page within the search window (ADR 0010);
        // beyond it, move `asOf` back instead of paging.
        const [{ total }]: Array<{ total: number }> = await manager.query(
          `SELECT count(*)::int AS total FROM (
           SELECT 1 FROM ledger_entries WHERE account = $1 AND occurred_at <= $2 LIMIT ${LIMITS.searchWindowRows}) capped`,
          [account, asOf],
        );
        const rows: EntryRow[] =
          offset >= LIMITS.searchWindowRows
            ? []
            : await manager.query(
                // The balance after each posting: stored for user accounts; for system accounts (which keep no running
                // balance, so that they are never a hot row) it is the balance at `asOf` minus every newer posting.
                `WITH newest AS (
                 SELECT entry_id, transaction_id, payment_id, account, counter_account, amount_minor, balance_after_minor,
                        occurred_at, event_type
                   FROM ledger_entries WHERE account = $1 AND occurred_at <= $2
                  ORDER BY ${NEWEST_FIRST} LIMIT $3
               ), running AS (
                 SELECT newest.*, $4::bigint - coalesce(sum(amount_minor) OVER (
                          ORDER BY ${NEWEST_FIRST} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS computed_after
                   FROM newest
               )
               SELECT transaction_id::text, payment_id::text, account, counter_account, amount_minor::text,
                      coalesce(balance_after_minor, computed_after)::text AS balance_after_minor, occurred_at, event_type
                 FROM running ORDER BY ${NEWEST_FIRST} OFFSET $5`,
                [account, asOf, Math.min(offset + size, LIMITS.searchWindowRows), balanceMinor, offset],
              );
        return { balanceMinor, rows, total };
      }),
    );
    const holders = await this.holdersOf(history.rows.map((row) => row.counter_account));
    return {
      account,
      holder,
      asOf: asOf.toISOString(),
      balance: minorToAmount(BigInt(history.balanceMinor)),
      entries: toPage(
        history.rows.map((row) => toLedgerEntry(row, holders)),
        page,
        size,
        history.total,
      ),
    };
  }

  /**
   * A user account's balance is the running balance stored with its latest posting at or before `asOf`; a system
   * account keeps none, so its balance is the sum of its postings up to then.
   */
  private async balanceAt(
    manager: DataSource['manager'],
    account: string,
    asOf: Date,
    isUserAccount: boolean,
  ): Promise<string> {
    const rows: Array<{ balance: string | null }> = isUserAccount
      ? await manager.query(
          `SELECT balance_after_minor::text AS balance FROM ledger_entries
            WHERE account = $1 AND occurred_at <= $2 ORDER BY ${NEWEST_FIRST} LIMIT 1`,
          [account, asOf],
        )
      : await manager.query(
          'SELECT sum(amount_minor)::text AS balance FROM ledger_entries WHERE account = $1 AND occurred_at <= $2',
          [account, asOf],
        );
    return rows[0]?.balance ?? '0';
  }

  /** Users are identity's: asked through its reader, never read from its table. An unknown user is a 404. */
  private async holderOf(userUuid: string): Promise<AccountHolder> {
    const view = await this.users.findByUuid(userUuid);
    if (!view) throw new ApiError('error.user.not.found');
    return toHolder(view);
  }

  /** The holders of a page's user counter-accounts, in one read through identity's reader, by account. */
  private async holdersOf(accounts: readonly string[]): Promise<Map<string, AccountHolder>> {
    const userUuids = accounts
      .filter((account) => account.startsWith(USER_ACCOUNT_PREFIX))
      .map((account) => account.slice(USER_ACCOUNT_PREFIX.length));
    const views = await this.users.findByUuids(userUuids);
    return new Map(views.map((view) => [`${USER_ACCOUNT_PREFIX}${view.uuid}`, toHolder(view)]));
  }
}

function toHolder(view: UserView): AccountHolder {
  return { userUuid: view.uuid, fullName: fullNameOf(view), email: view.email };
}

function toLedgerEntry(row: EntryRow, holders: ReadonlyMap<string, AccountHolder>): LedgerEntry {
  return {
    transactionId: row.transaction_id,
    paymentId: row.payment_id === null ? null : Number(row.payment_id),
    account: row.account,
    counterAccount: row.counter_account,
    counterAccountHolder: holders.get(row.counter_account) ?? null,
    amount: minorToAmount(BigInt(row.amount_minor)),
    balanceAfter: minorToAmount(BigInt(row.balance_after_minor)),
    occurredAt: row.occurred_at.toISOString(),
    eventType: row.event_type,
  };
}
