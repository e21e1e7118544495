import { ApiProperty } from '@nestjs/swagger';
import { checkRecipient, RECIPIENT_PATTERN, type TransferRecipientRequest } from '@kupa/proto';
import { SatisfiesRule } from '../../../../platform/http';

export class LookUpTransferRecipientRequestDto implements TransferRecipientRequest {
  @ApiProperty({
    type: 'string',
    pattern: RECIPIENT_PATTERN.source,
    description: "The recipient's e-mail address or 8-digit profile ID, as the transfer will name them",
    example: '12345678',
  })
  @SatisfiesRule(checkRecipient)
  recipient: string;
}
