import { Command } from '@nestjs/cqrs';
import type { Plan } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';
import type { CreatePlanRequestDto } from './create-plan.request.dto';

export class CreatePlanCommand extends Command<Plan> {
  constructor(
    readonly request: CreatePlanRequestDto,
    readonly context: RequestContext,
  ) {
    super();
  }
}
