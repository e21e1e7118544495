import { Query } from '@nestjs/cqrs';
import type { BalanceAtInstant } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';

/** "My balance on ⟨date⟩": a user's balance as the ledger held it at `at` (ADR 0096). */
export class GetBalanceAtQuery extends Query<BalanceAtInstant> {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly at: Date,
  ) {
    super();
  }
}
