import type { RequestContext } from '../../../../platform/auth';
import type { CreateUserRequestDto } from './create-user.request.dto';

export class CreateUserCommand {
  constructor(
    readonly request: CreateUserRequestDto,
    readonly context: RequestContext,
  ) {}
}
