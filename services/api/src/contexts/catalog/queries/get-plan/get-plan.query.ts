import type { Actor } from '../../../../platform/auth';

export class GetPlanQuery {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
  ) {}
}
