import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { UserStreams } from '../../infrastructure/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ChangeUserRoleCommand } from './change-user-role.command';

@CommandHandler(ChangeUserRoleCommand)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRoleCommand, User> {
  constructor(
    private readonly streams: UserStreams,
    private readonly reader: UserReader,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, userUuid, role, context }: ChangeUserRoleCommand): Promise<User> {
    const command = { type: 'ChangeRole' as const, role, actor: { userUuid: actor.userUuid, role: actor.role } };
    await this.streams.execute(userUuid, command, context, this.clock.now());
    return this.reader.getUser(userUuid);
  }
}
