import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { UserStreams } from '../../infrastructure/user-streams';
import { assertMaySee } from '../../infrastructure/user-access';
import { UserReader } from '../../projections/users/user-reader';
import { UpdateUserCommand } from './update-user.command';

@CommandHandler(UpdateUserCommand)
export class UpdateUserHandler implements ICommandHandler<UpdateUserCommand, User> {
  constructor(
    private readonly streams: UserStreams,
    private readonly reader: UserReader,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, userUuid, request, context }: UpdateUserCommand): Promise<User> {
    assertMaySee(actor, userUuid);
    await this.streams.execute(
      userUuid,
      { type: 'UpdateProfile', firstName: request.firstName, lastName: request.lastName },
      context,
      this.clock.now(),
    );
    return this.reader.getUser(userUuid);
  }
}
