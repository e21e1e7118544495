import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Plan } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { changePlanStatus } from '../../domain/plan.decider';
import { planCommand } from '../../infrastructure/plan-streams';
import { PlanReader } from '../../projections/payment-plans/plan-reader';
import { ChangePlanStatusCommand } from './change-plan-status.command';

@CommandHandler(ChangePlanStatusCommand)
export class ChangePlanStatusHandler implements ICommandHandler<ChangePlanStatusCommand, Plan> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: PlanReader,
  ) {}

  async execute({ planId, status, context }: ChangePlanStatusCommand): Promise<Plan> {
    await this.pipeline.run(
      planCommand(
        planId,
        context,
        () => Promise.resolve(null),
        (state) => changePlanStatus({ status }, state),
      ),
    );
    return this.reader.get(planId);
  }
}
