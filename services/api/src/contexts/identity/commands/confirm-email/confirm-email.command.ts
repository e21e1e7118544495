import { Command } from '@nestjs/cqrs';
import type { ConfirmationResponse } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class ConfirmEmailCommand extends Command<ConfirmationResponse> {
  constructor(
    readonly token: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
