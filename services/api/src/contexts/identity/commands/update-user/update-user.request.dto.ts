import { type UpdateUserRequest } from '@kupa/proto';
import { PersonNameField } from '../../infrastructure/http/dto-fields';

export class UpdateUserRequestDto implements UpdateUserRequest {
  @PersonNameField()
  firstName: string;

  @PersonNameField()
  lastName: string;
}
