import { ApiProperty } from '@nestjs/swagger';
import { type ChangeUserRoleRequest, type UserRole, USER_ROLES } from '@kupa/proto';
import { IsIn } from 'class-validator';

export class ChangeUserRoleRequestDto implements ChangeUserRoleRequest {
  @ApiProperty({ enum: USER_ROLES })
  @IsIn(USER_ROLES)
  role: UserRole;
}
