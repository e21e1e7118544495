import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { maskEmail, type TransferRecipient } from '@kupa/proto';
import { fullNameOf } from '../../../identity';
import { TransferRecipients } from '../../infrastructure/transfer-recipients';
import { LookUpTransferRecipientQuery } from './look-up-transfer-recipient.query';

/**
 * The recipient a transfer would reach, named as registered, with the e-mail masked (docs/product.md, Ledger,
 * Transfer): enough for the sender to recognise the person, not enough to learn an address they typed a profile ID
 * for.
 */
@QueryHandler(LookUpTransferRecipientQuery)
export class LookUpTransferRecipientHandler implements IQueryHandler<LookUpTransferRecipientQuery, TransferRecipient> {
  constructor(private readonly recipients: TransferRecipients) {}

  async execute({ actor, recipient }: LookUpTransferRecipientQuery): Promise<TransferRecipient> {
    const found = await this.recipients.find(recipient, actor.userUuid);
    return { fullName: fullNameOf(found), maskedEmail: maskEmail(found.email) };
  }
}
