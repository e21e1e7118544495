import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { isStaffRole, type Plan } from '@kupa/proto';
import { ApiError } from '../../../../platform/http';
import { PlanReader } from '../../projections/payment-plans/plan-reader';
import { GetPlanQuery } from './get-plan.query';

@QueryHandler(GetPlanQuery)
export class GetPlanHandler implements IQueryHandler<GetPlanQuery, Plan> {
  constructor(private readonly reader: PlanReader) {}

  /** Customers see only packages on sale: an INACTIVE one is as missing to them as one that never existed. */
  async execute({ actor, planId }: GetPlanQuery): Promise<Plan> {
    const plan = await this.reader.get(planId);
    if (!isStaffRole(actor.role)) {
      if (plan.status !== 'ACTIVE') throw new ApiError('error.payment.plan.not.found');
      return plan;
    }
    return (await this.reader.withUsage([plan]))[0];
  }
}
