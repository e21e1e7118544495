import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type AccountStatement,
  isStaffRole,
  LIMITS,
  minorToAmount,
  statementEventType,
  statementLineWords,
  userAccount,
} from '@kupa/proto';
import type { EntityManager } from 'typeorm';
import { ReadSource } from '../../../../platform/database/read-replica';
import type { Actor } from '../../../../platform/auth';
import { ApiError } from '../../../../platform/http';
import { UserReader, type UserView } from '../../../identity';
import { checkStatementPeriod, checkStatementPostingCount, statementOf } from '../../domain/statement';
import { bigintToNumber } from '../../infrastructure/bigint';
import { GetStatementQuery } from './get-statement.query';

/** Postings oldest first; the entry id orders postings of one instant as booked (`ledger_entries_account_time`). */
const OLDEST_FIRST = 'e.occurred_at, e.entry_id';

interface PostingRow {
  payment_id: string | null;
  amount_minor: string;
  balance_after_minor: string;
  occurred_at: Date;
  event_type: string;
}

/**
 * The account a statement or a balance is read for: staff read any user's, a client or an ambassador only their own;
 * another's answers 404 as an unknown user does, so nobody learns which accounts exist.
 */
export async function statementHolder(users: UserReader, actor: Actor, userUuid: string): Promise<UserView> {
  if (!isStaffRole(actor.role) && actor.userUuid !== userUuid) throw new ApiError('error.user.not.found');
  const holder = await users.findByUuid(userUuid);
  if (!holder) throw new ApiError('error.user.not.found');
  return holder;
}

/**
 * The ledger's as-of read of a user account: the running balance booked with its last posting before `instant`
 * (`inclusive`: at or before it), as `GET /ledger/accounts/{account}/history` answers it.
 */
export async function bookedBalanceAt(
  manager: EntityManager,
  account: string,
  instant: Date,
  inclusive: boolean,
): Promise<number> {
  const rows: Array<{ balance: string }> = await manager.query(
    `SELECT balance_after_minor::text AS balance FROM ledger_entries e
      WHERE e.account = $1 AND e.occurred_at ${inclusive ? '<=' : '<'} $2
      ORDER BY e.occurred_at DESC, e.entry_id DESC LIMIT 1`,
    [account, instant],
  );
  return rows.length === 0 ? 0 : bigintToNumber(rows[0].balance);
}

@QueryHandler(GetStatementQuery)
export class GetStatementHandler implements IQueryHandler<GetStatementQuery, AccountStatement> {
  constructor(
    private readonly reads: ReadSource,
    private readonly users: UserReader,
  ) {}

  async execute({ actor, userUuid, from, to, language }: GetStatementQuery): Promise<AccountStatement> {
    checkStatementPeriod(from, to);
    const holder = await statementHolder(this.users, actor, userUuid);
    const account = userAccount(userUuid);
    // One REPEATABLE READ snapshot: the opening balance and the postings describe the same history even while
    // postings are being booked.
    const { openingMinor, rows } = await this.reads.run('statement', (db) =>
      db.transaction('REPEATABLE READ', async (manager) => {
        const [{ count }]: Array<{ count: number }> = await manager.query(
          `SELECT count(*)::int AS count FROM (
           SELECT 1 FROM ledger_entries e WHERE e.account = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3
            LIMIT ${LIMITS.statementPostingsMax + 1}) capped`,
          [account, from, to],
        );
        checkStatementPostingCount(count);
        const opening = await bookedBalanceAt(manager, account, from, false);
        // A transfer is booked once, under the sender's payment; its recipient reads it under their own TRANSFER_IN.
        const postings: PostingRow[] = await manager.query(
          `SELECT (CASE WHEN e.event_type = 'TransferSent' AND e.amount_minor > 0
                      THEN (SELECT r.payment_id FROM payments r
                             WHERE r.transfer_id = p.transfer_id AND r.type = 'TRANSFER_IN' AND r.user_uuid = $4)
                      ELSE e.payment_id END)::text AS payment_id,
                e.amount_minor::text, e.balance_after_minor::text, e.occurred_at, e.event_type
           FROM ledger_entries e LEFT JOIN payments p ON p.payment_id = e.payment_id
          WHERE e.account = $1 AND e.occurred_at >= $2 AND e.occurred_at < $3
          ORDER BY ${OLDEST_FIRST}`,
          [account, from, to, userUuid],
        );
        return { openingMinor: opening, rows: postings };
      }),
    );
    const lang = language ?? holder.language;
    const statement = statementOf(
      openingMinor,
      rows.map((row) => ({
        paymentId: row.payment_id === null ? null : Number(row.payment_id),
        amountMinor: bigintToNumber(row.amount_minor),
        bookedBalanceAfterMinor: bigintToNumber(row.balance_after_minor),
        occurredAt: row.occurred_at.toISOString(),
        bookedEventType: row.event_type,
      })),
    );
    return {
      userUuid,
      account,
      from: from.toISOString(),
      to: to.toISOString(),
      language: lang,
      openingBalance: minorToAmount(statement.openingMinor),
      closingBalance: minorToAmount(statement.closingMinor),
      creditsTotal: minorToAmount(statement.creditsMinor),
      debitsTotal: minorToAmount(statement.debitsMinor),
      lines: statement.lines.map((line) => {
        const eventType = statementEventType(line.bookedEventType, line.amountMinor);
        return {
          occurredAt: line.occurredAt,
          paymentId: line.paymentId,
          eventType,
          description: statementLineWords({ paymentId: line.paymentId, eventType }, userUuid, lang),
          amount: minorToAmount(line.amountMinor),
          balanceAfter: minorToAmount(line.balanceAfterMinor),
        };
      }),
    };
  }
}
