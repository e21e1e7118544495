import { Query } from '@nestjs/cqrs';
import type { Plan } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';

export class GetPlanQuery extends Query<Plan> {
  constructor(
    readonly actor: Actor,
    readonly planId: string,
  ) {
    super();
  }
}
