import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { deletePlan } from '../../domain/plan.decider';
import { PlanReferences } from '../../application/plan-references.port';
import { planCommand } from '../../infrastructure/plan-streams';
import { DeletePlanCommand } from './delete-plan.command';

@CommandHandler(DeletePlanCommand)
export class DeletePlanHandler implements ICommandHandler<DeletePlanCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly references: PlanReferences,
  ) {}

  async execute({ planId, context }: DeletePlanCommand): Promise<void> {
    await this.pipeline.run(
      planCommand(
        planId,
        context,
        (tx) => this.references.isReferenced(planId, tx.manager),
        (state, referenced, { at }) => deletePlan({ referenced, at }, state),
      ),
    );
  }
}
