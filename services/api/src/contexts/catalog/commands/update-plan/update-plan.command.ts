import { Command } from '@nestjs/cqrs';
import type { Plan } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';
import type { UpdatePlanRequestDto } from './update-plan.request.dto';

export class UpdatePlanCommand extends Command<Plan> {
  constructor(
    readonly planId: string,
    readonly request: UpdatePlanRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
