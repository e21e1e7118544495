import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { User } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { updateProfile } from '../../domain/user.decider';
import { assertMaySee } from '../../application/user-access';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { UpdateUserCommand } from './update-user.command';

@CommandHandler(UpdateUserCommand)
export class UpdateUserHandler implements ICommandHandler<UpdateUserCommand, User> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: UserReader,
  ) {}

  async execute({ actor, userUuid, request, context }: UpdateUserCommand): Promise<User> {
    assertMaySee(actor, userUuid);
    const { firstName, lastName } = request;
    await this.pipeline.run(
      userCommand(userUuid, context, (user) => updateProfile({ firstName, lastName, actor }, user)),
    );
    return this.reader.getUser(userUuid);
  }
}
