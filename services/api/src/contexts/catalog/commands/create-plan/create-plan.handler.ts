import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Plan } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { assert } from '../../../../kernel';
import { CommandPipeline } from '../../../../platform/commands';
import { createPlan } from '../../domain/plan.decider';
import { withUniquePlanName } from '../../infrastructure/plan-names';
import { planCommand } from '../../infrastructure/plan-streams';
import { planTermsOf } from '../../infrastructure/plan-terms';
import { PlanReader } from '../../projections/payment-plans/plan-reader';
import { planNameTaken } from '../../projections/payment-plans/plan-view';
import { CreatePlanCommand } from './create-plan.command';

@CommandHandler(CreatePlanCommand)
export class CreatePlanHandler implements ICommandHandler<CreatePlanCommand, Plan> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: PlanReader,
  ) {}

  async execute({ request, context }: CreatePlanCommand): Promise<Plan> {
    const planId = randomUUID();
    const { terms, status } = planTermsOf(request);
    await withUniquePlanName(() =>
      this.pipeline.run(
        planCommand(
          planId,
          context,
          (tx) => planNameTaken(tx.manager, terms.name, planId),
          (state, nameTaken, { at }) => createPlan({ planId, terms, status, nameTaken, at }, state),
        ),
      ),
    );
    const plan = await this.reader.find(planId);
    assert(plan !== null, 'the projection wrote the created package in the same transaction');
    return plan;
  }
}
