import type { RequestContext } from '../../../../platform/auth';
import type { SignUpRequestDto } from './sign-up.request.dto';

export class SignUpCommand {
  constructor(
    readonly request: SignUpRequestDto,
    readonly context: RequestContext,
  ) {}
}
