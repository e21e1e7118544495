import type { RequestContext } from '../../../../platform/auth';

export class DeletePlanCommand {
  constructor(
    readonly planId: string,
    readonly context: RequestContext,
  ) {}
}
