import { ApiProperty } from '@nestjs/swagger';
import { checkRecipient, PATTERNS, type TransferRecipientRequest } from '@kupa/proto';
import { SatisfiesRule } from '../../../../platform/http';

export class LookUpTransferRecipientRequestDto implements TransferRecipientRequest {
  @ApiProperty({
    anyOf: [{ pattern: PATTERNS.profileId.source }, { format: 'email' }],
    type: 'string',
    description: "The recipient's e-mail address or 8-digit profile ID, as the transfer will name them",
    example: '12345678',
  })
  @SatisfiesRule(checkRecipient)
  recipient: string;
}
