import type { RequestContext } from '../../../../platform/auth';
import type { UpdatePlanRequestDto } from './update-plan.request.dto';

export class UpdatePlanCommand {
  constructor(
    readonly planId: string,
    readonly request: UpdatePlanRequestDto,
    readonly context: RequestContext,
  ) {}
}
