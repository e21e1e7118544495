import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Subscription } from '@kupa/proto';
import { ApiError } from '../../../../platform/http';
import { SubscriptionCommands } from '../../infrastructure/subscription-commands';
import { TakeTrialCommand } from './take-trial.command';

@CommandHandler(TakeTrialCommand)
export class TakeTrialHandler implements ICommandHandler<TakeTrialCommand, Subscription> {
  constructor(private readonly subscriptions: SubscriptionCommands) {}

  /** Only for oneself: another user's id answers like an unknown one. */
  execute({ actor, userUuid, request, context }: TakeTrialCommand): Promise<Subscription> {
    if (userUuid !== actor.userUuid) throw new ApiError('error.user.not.found');
    return this.subscriptions.takeTrial({ userUuid, login: request.login, password: request.password, context });
  }
}
