import { ApiProperty } from '@nestjs/swagger';
import { checkPersonName, type UpdateUserRequest } from '@kupa/proto';
import { SatisfiesRule } from '../../../../platform/http';
import { Trimmed } from '../../infrastructure/dto-fields';

export class UpdateUserRequestDto implements UpdateUserRequest {
  @ApiProperty()
  @Trimmed()
  @SatisfiesRule(checkPersonName)
  firstName: string;

  @ApiProperty()
  @Trimmed()
  @SatisfiesRule(checkPersonName)
  lastName: string;
}
