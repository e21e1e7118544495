import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { changeStatus } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ChangeUserStatusCommand } from './change-user-status.command';

@CommandHandler(ChangeUserStatusCommand)
export class ChangeUserStatusHandler implements ICommandHandler<ChangeUserStatusCommand, User> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: UserReader,
  ) {}

  async execute({ actor, userUuid, status, context }: ChangeUserStatusCommand): Promise<User> {
    await this.pipeline.run(userCommand(userUuid, context, (user) => changeStatus({ status, actor }, user)));
    return this.reader.getUser(userUuid);
  }
}
