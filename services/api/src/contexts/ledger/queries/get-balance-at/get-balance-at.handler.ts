import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type BalanceAtInstant, minorToAmount, userAccount } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { UserReader } from '../../../identity';
import { bookedBalanceAt, statementHolder } from '../get-statement/get-statement.handler';
import { GetBalanceAtQuery } from './get-balance-at.query';

@QueryHandler(GetBalanceAtQuery)
export class GetBalanceAtHandler implements IQueryHandler<GetBalanceAtQuery, BalanceAtInstant> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserReader,
  ) {}

  /** The ledger's as-of, postings at `at` included, of the client's own account (or any, for staff). */
  async execute({ actor, userUuid, at }: GetBalanceAtQuery): Promise<BalanceAtInstant> {
    await statementHolder(this.users, actor, userUuid);
    const balanceMinor = await bookedBalanceAt(this.dataSource.manager, userAccount(userUuid), at, true);
    return { userUuid, at: at.toISOString(), balance: minorToAmount(balanceMinor) };
  }
}
