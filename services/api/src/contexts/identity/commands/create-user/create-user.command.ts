import { Command } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';
import type { CreateUserRequestDto } from './create-user.request.dto';

export class CreateUserCommand extends Command<User> {
  constructor(
    readonly request: CreateUserRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
