import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BULK_ACTIONS, type BulkAction } from '@kupa/proto';
import { Type } from 'class-transformer';
import { IsIn, IsObject, ValidateNested } from 'class-validator';
import { OptionalField } from '../../../../platform/http';
import { ClientFilterDto } from '../../../identity';
import { SubscriptionFilterDto } from '../../../subscriptions';

/** The targets and the action: the preview's body, and the start of the batch's. */
export class BulkSelectionRequestDto {
  @ApiProperty({ enum: BULK_ACTIONS, description: 'ADD_DAYS works on subscriptions, the others on clients' })
  @IsIn(BULK_ACTIONS)
  action: BulkAction;

  @ApiPropertyOptional({
    type: ClientFilterDto,
    description: "Clients (every action but ADD_DAYS): the staff clients list's filters; absent: every active client",
  })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => ClientFilterDto)
  filter?: ClientFilterDto;

  @ApiPropertyOptional({
    type: SubscriptionFilterDto,
    description: "ADD_DAYS only: the staff subscriptions list's filters; absent: every active subscription",
  })
  @OptionalField()
  @IsObject()
  @ValidateNested()
  @Type(() => SubscriptionFilterDto)
  subscriptionFilter?: SubscriptionFilterDto;
}
