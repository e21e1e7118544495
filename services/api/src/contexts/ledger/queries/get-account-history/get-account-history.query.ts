import { Query } from '@nestjs/cqrs';
import type { AccountHistory, LedgerAccount } from '@kupa/proto';

export class GetAccountHistoryQuery extends Query<AccountHistory> {
  constructor(
    readonly account: LedgerAccount,
    readonly asOf: Date,
    readonly page: number,
    readonly size: number,
  ) {
    super();
  }
}
