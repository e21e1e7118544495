import { Query } from '@nestjs/cqrs';
import type { TransferRecipient } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';

/** Who a transfer from `actor` to `recipient` (an e-mail or a profile ID) would reach. */
export class LookUpTransferRecipientQuery extends Query<TransferRecipient> {
  constructor(
    readonly actor: Actor,
    readonly recipient: string,
  ) {
    super();
  }
}
