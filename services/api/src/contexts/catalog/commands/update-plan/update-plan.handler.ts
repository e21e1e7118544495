import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Plan } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { updatePlan } from '../../domain/plan.decider';
import { PlanReferences } from '../../application/plan-references.port';
import { withUniquePlanName } from '../../infrastructure/plan-names';
import { planCommand } from '../../infrastructure/plan-streams';
import { planTermsOf } from '../../infrastructure/plan-terms';
import { PlanReader } from '../../projections/payment-plans/plan-reader';
import { planNameTaken } from '../../projections/payment-plans/plan-view';
import { UpdatePlanCommand } from './update-plan.command';

@CommandHandler(UpdatePlanCommand)
export class UpdatePlanHandler implements ICommandHandler<UpdatePlanCommand, Plan> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly references: PlanReferences,
    private readonly reader: PlanReader,
  ) {}

  async execute({ planId, request, context }: UpdatePlanCommand): Promise<Plan> {
    const { terms, status } = planTermsOf(request);
    await withUniquePlanName(() =>
      this.pipeline.run(
        planCommand(
          planId,
          context,
          async (tx) => ({
            referenced: await this.references.isReferenced(planId, tx.manager),
            nameTaken: await planNameTaken(tx.manager, terms.name, planId),
          }),
          (state, facts) => updatePlan({ terms, status, ...facts }, state),
        ),
      ),
    );
    return this.reader.get(planId);
  }
}
