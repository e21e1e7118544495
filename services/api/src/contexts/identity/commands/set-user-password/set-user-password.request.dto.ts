import { ApiProperty } from '@nestjs/swagger';
import { checkPassword, type SetUserPasswordRequest } from '@kupa/proto';
import { SatisfiesRule } from '../../../../platform/http';

export class SetUserPasswordRequestDto implements SetUserPasswordRequest {
  @ApiProperty()
  @SatisfiesRule(checkPassword)
  password: string;
}
