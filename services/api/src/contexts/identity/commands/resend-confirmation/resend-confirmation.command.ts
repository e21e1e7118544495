import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';
import type { EmailRequestDto } from './resend-confirmation.request.dto';

export class ResendConfirmationCommand extends Command<void> {
  constructor(
    readonly request: EmailRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
