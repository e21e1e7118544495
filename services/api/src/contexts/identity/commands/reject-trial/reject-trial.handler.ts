import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { rejectTrial } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { RejectTrialCommand } from './reject-trial.command';

@CommandHandler(RejectTrialCommand)
export class RejectTrialHandler implements ICommandHandler<RejectTrialCommand, void> {
  constructor(private readonly pipeline: CommandPipeline) {}

  async execute({ actor, context }: RejectTrialCommand): Promise<void> {
    await this.pipeline.run(userCommand(actor.userUuid, context, (user, { at }) => rejectTrial({ at }, user)));
  }
}
