import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { UserStreams } from '../../infrastructure/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ChangeUserStatusCommand } from './change-user-status.command';

@CommandHandler(ChangeUserStatusCommand)
export class ChangeUserStatusHandler implements ICommandHandler<ChangeUserStatusCommand, User> {
  constructor(
    private readonly streams: UserStreams,
    private readonly reader: UserReader,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, userUuid, status, context }: ChangeUserStatusCommand): Promise<User> {
    const command = { type: 'ChangeStatus' as const, status, actor: { userUuid: actor.userUuid, role: actor.role } };
    await this.streams.execute(userUuid, command, context, this.clock.now());
    return this.reader.getUser(userUuid);
  }
}
