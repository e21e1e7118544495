import type { RequestContext } from '../../../../platform/auth';
import type { EmailRequestDto } from './resend-confirmation.request.dto';

export class ResendConfirmationCommand {
  constructor(
    readonly request: EmailRequestDto,
    readonly context: RequestContext,
  ) {}
}
