import { type SetUserPasswordRequest } from '@kupa/proto';
import { NewPasswordField } from '../../infrastructure/password-fields';

export class SetUserPasswordRequestDto implements SetUserPasswordRequest {
  @NewPasswordField()
  password: string;
}
