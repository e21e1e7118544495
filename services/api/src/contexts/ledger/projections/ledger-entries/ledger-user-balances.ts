import { Injectable } from '@nestjs/common';
import { USER_ACCOUNT_PREFIX, userAccount } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { UserBalances } from '../../../identity';
import { bigintToNumber } from '../../infrastructure/bigint';

/** The view over `account_balances` that the ledger publishes for sorting users by balance (LedgerUserBalancesView). */
export const LEDGER_USER_BALANCES_VIEW = 'ledger_user_balances';

/**
 * The ledger's side of identity's `UserBalances` port: users' balances from the ledger's own `account_balances`,
 * which the ledger-entries projection keeps in the append transaction, so a `User` payload read after a command
 * shows the balance that command left. Bound in the ledger module (ADR 0013).
 */
@Injectable()
export class LedgerUserBalances extends UserBalances {
  readonly sortRelation = LEDGER_USER_BALANCES_VIEW;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async balancesOf(userUuids: readonly string[]): Promise<ReadonlyMap<string, number>> {
    if (userUuids.length === 0) return new Map();
    const rows: Array<{ account: string; balance_minor: string }> = await this.dataSource.query(
      'SELECT account, balance_minor FROM account_balances WHERE account = ANY($1::text[])',
      [userUuids.map((userUuid) => userAccount(userUuid))],
    );
    return new Map(
      rows.map((row) => [row.account.slice(USER_ACCOUNT_PREFIX.length), bigintToNumber(row.balance_minor)]),
    );
  }
}
