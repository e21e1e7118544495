import { Injectable } from '@nestjs/common';
import { CUSTOMER_ROLES, isOneOf, PATTERNS } from '@kupa/proto';
import { ApiError } from '../../../platform/http';
import { type ActorAndOther, UserReader, type UserView } from '../../identity';

/**
 * Who may receive a transfer (docs/product.md, Ledger, Transfer): an `ACTIVE` client or ambassador, named by e-mail
 * (any case) or by profile ID. The transfer and the recipient look-up ask the same question here, so the look-up
 * never names someone a transfer would refuse, nor refuses someone a transfer would take.
 */
@Injectable()
export class TransferRecipients {
  constructor(private readonly users: UserReader) {}

  /**
   * The recipient of a transfer from `senderUuid`. Unknown, unconfirmed, blocked and staff accounts all answer 404
   * `error.user.not.found` alike, so the answer tells nothing about accounts one may not send to; the sender
   * themself is 409 `error.transfer.to.self`.
   */
  async find(recipient: string, senderUuid: string): Promise<UserView> {
    const found = PATTERNS.profileId.test(recipient)
      ? await this.users.findByProfileId(recipient)
      : await this.users.findByEmail(recipient.trim());
    return this.accept(found, senderUuid);
  }

  /**
   * A transfer's sender, whether its step-up is on, and the account its recipient names, in one read (docs/adr/0129);
   * the recipient is not judged yet: `accept` does that once the caller's earlier refusals (the step-up) have spoken.
   */
  findWithSender(recipient: string, senderUuid: string): Promise<ActorAndOther> {
    return this.users.findActorAndOther(
      senderUuid,
      PATTERNS.profileId.test(recipient) ? { profileId: recipient } : { email: recipient.trim() },
    );
  }

  /** The account found for a recipient, if a transfer from `senderUuid` may go to it (the refusals of `find`). */
  accept(found: UserView | null, senderUuid: string): UserView {
    if (!found || found.status !== 'ACTIVE' || !isOneOf(CUSTOMER_ROLES, found.role))
      throw new ApiError('error.user.not.found');
    if (found.uuid === senderUuid) throw new ApiError('error.transfer.to.self');
    return found;
  }
}
