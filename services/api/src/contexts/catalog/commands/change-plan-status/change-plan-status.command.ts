import { Command } from '@nestjs/cqrs';
import type { Plan, PlanStatus } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class ChangePlanStatusCommand extends Command<Plan> {
  constructor(
    readonly planId: string,
    readonly status: PlanStatus,
    readonly context: RequestContext,
  ) {
    super();
  }
}
