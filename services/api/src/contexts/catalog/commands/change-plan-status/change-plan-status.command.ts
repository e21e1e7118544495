import type { PlanStatus } from '@kupa/proto';
import type { RequestContext } from '../../../../platform/auth';

export class ChangePlanStatusCommand {
  constructor(
    readonly planId: string,
    readonly status: PlanStatus,
    readonly context: RequestContext,
  ) {}
}
