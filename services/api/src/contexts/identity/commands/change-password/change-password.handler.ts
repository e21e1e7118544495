import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import { CredentialsRepository } from '../../infrastructure/credentials.repository';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { UserStreams } from '../../infrastructure/user-streams';
import { ChangePasswordCommand } from './change-password.command';

@CommandHandler(ChangePasswordCommand)
export class ChangePasswordHandler implements ICommandHandler<ChangePasswordCommand, void> {
  constructor(
    private readonly streams: UserStreams,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, request, context }: ChangePasswordCommand): Promise<void> {
    const currentHash = await this.credentials.findHash(actor.userUuid);
    if (!currentHash || !(await this.hasher.verify(currentHash, request.oldPassword)))
      throw new ApiError('error.password.current.incorrect');
    const passwordHash = await this.hasher.hash(request.password);
    const now = this.clock.now();
    await this.streams.execute(actor.userUuid, { type: 'ChangePassword', at: now }, context, now, async (tx) => {
      await this.credentials.save(tx.manager, actor.userUuid, passwordHash, now);
    });
  }
}
