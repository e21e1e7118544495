import type { Actor } from '../../../../platform/auth';

/** Who a transfer from `actor` to `recipient` (an e-mail or a profile ID) would reach. */
export class LookUpTransferRecipientQuery {
  constructor(
    readonly actor: Actor,
    readonly recipient: string,
  ) {}
}
