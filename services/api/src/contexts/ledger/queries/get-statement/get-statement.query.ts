import { Query } from '@nestjs/cqrs';
import type { AccountStatement, Language } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';

/**
 * A client's statement over [from, to) (ADR 0096). `language` is the one the request asked for; null lets the
 * statement speak the account holder's own language.
 */
export class GetStatementQuery extends Query<AccountStatement> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly from: Date,
    readonly to: Date,
    readonly language: Language | null,
  ) {
    super();
  }
}
