import { ApiProperty } from '@nestjs/swagger';
import { type ChangeUserStatusRequest, type UserStatus, USER_STATUSES } from '@kupa/proto';
import { IsIn } from 'class-validator';

export class ChangeUserStatusRequestDto implements ChangeUserStatusRequest {
  @ApiProperty({ enum: USER_STATUSES })
  @IsIn(USER_STATUSES)
  status: UserStatus;
}
