import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { UserStreams } from '../../infrastructure/user-streams';
import { RejectTrialCommand } from './reject-trial.command';

@CommandHandler(RejectTrialCommand)
export class RejectTrialHandler implements ICommandHandler<RejectTrialCommand, void> {
  constructor(
    private readonly streams: UserStreams,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, context }: RejectTrialCommand): Promise<void> {
    const now = this.clock.now();
    await this.streams.execute(actor.userUuid, { type: 'RejectTrial', at: now }, context, now);
  }
}
