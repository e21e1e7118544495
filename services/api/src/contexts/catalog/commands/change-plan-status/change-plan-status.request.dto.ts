import { ApiProperty } from '@nestjs/swagger';
import { type ChangePlanStatusRequest, PLAN_STATUSES, type PlanStatus } from '@kupa/proto';
import { IsIn } from 'class-validator';

export class ChangePlanStatusRequestDto implements ChangePlanStatusRequest {
  @ApiProperty({ enum: PLAN_STATUSES })
  @IsIn(PLAN_STATUSES)
  status: PlanStatus;
}
