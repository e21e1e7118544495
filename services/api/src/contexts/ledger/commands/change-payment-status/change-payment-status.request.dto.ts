import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { type ChangePaymentStatusRequest, PAYMENT_STATUSES, type PaymentStatus } from '@kupa/proto';
import { IsBoolean, IsIn } from 'class-validator';
import { PublicNoteField } from '../../infrastructure/public-note';
import { OptionalField } from '../../../../platform/http';

export class ChangePaymentStatusRequestDto implements ChangePaymentStatusRequest {
  @ApiProperty({ enum: PAYMENT_STATUSES })
  @IsIn(PAYMENT_STATUSES)
  status: PaymentStatus;

  @ApiPropertyOptional({ description: 'Staff confirm that the change may leave the balance negative' })
  @OptionalField()
  @IsBoolean()
  confirmNegativeBalance?: boolean;

  @PublicNoteField('Shown to the client with the payment; replaces the note of the booking or an earlier change')
  publicNote?: string;
}
