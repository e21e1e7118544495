import type { RequestContext } from '../../../../platform/auth';
import type { CreatePlanRequestDto } from './create-plan.request.dto';

export class CreatePlanCommand {
  constructor(
    readonly request: CreatePlanRequestDto,
    readonly context: RequestContext,
  ) {}
}
