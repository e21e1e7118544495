import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { changeRole } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ChangeUserRoleCommand } from './change-user-role.command';

@CommandHandler(ChangeUserRoleCommand)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRoleCommand, User> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: UserReader,
  ) {}

  async execute({ actor, userUuid, role, context }: ChangeUserRoleCommand): Promise<User> {
    await this.pipeline.run(userCommand(userUuid, context, (user) => changeRole({ role, actor }, user)));
    return this.reader.getUser(userUuid);
  }
}
