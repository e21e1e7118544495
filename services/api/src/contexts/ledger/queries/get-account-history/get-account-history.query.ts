import type { LedgerAccount } from '@kupa/proto';

export class GetAccountHistoryQuery {
  constructor(
    readonly account: LedgerAccount,
    readonly asOf: Date,
    readonly page: number,
    readonly size: number,
  ) {}
}
