import { type SetUserPasswordRequest } from '@kupa/proto';
import { NewPasswordField } from '../../infrastructure/passwords/password-fields';

export class SetUserPasswordRequestDto implements SetUserPasswordRequest {
  @NewPasswordField()
  password: string;
}
