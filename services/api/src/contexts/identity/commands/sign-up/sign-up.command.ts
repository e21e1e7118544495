import { Command } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';
import type { SignUpRequestDto } from './sign-up.request.dto';

export class SignUpCommand extends Command<User> {
  constructor(
    readonly request: SignUpRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
