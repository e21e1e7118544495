import { Command } from '@nestjs/cqrs';
import type { EmailChangeResponse } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class ConfirmEmailChangeCommand extends Command<EmailChangeResponse> {
  constructor(
    readonly token: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
