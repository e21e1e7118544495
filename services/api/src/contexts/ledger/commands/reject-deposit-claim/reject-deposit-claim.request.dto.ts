import { ApiProperty } from '@nestjs/swagger';
import { checkPublicNote, checkRequired, type DepositClaimRejectionRequest, firstIssue, LIMITS } from '@kupa/proto';
import { SatisfiesRule, Trimmed } from '../../../../platform/http';

export class RejectDepositClaimRequestDto implements DepositClaimRejectionRequest {
  @ApiProperty({
    minLength: 1,
    maxLength: LIMITS.publicNoteMaxLength,
    description: 'Why the claim is rejected; the client reads it',
  })
  @Trimmed()
  @SatisfiesRule((value) => firstIssue(value, checkRequired, checkPublicNote))
  reason: string;
}
