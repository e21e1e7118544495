import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../../../../platform/auth';

export class DeletePlanCommand extends Command<void> {
  constructor(
    readonly planId: string,
    readonly context: RequestContext,
  ) {
    super();
  }
}
