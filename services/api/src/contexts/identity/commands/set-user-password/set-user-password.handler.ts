import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { CredentialsRepository } from '../../infrastructure/credentials.repository';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { RefreshTokens } from '../../infrastructure/refresh-tokens';
import { UserStreams } from '../../infrastructure/user-streams';
import { SetUserPasswordCommand } from './set-user-password.command';

@CommandHandler(SetUserPasswordCommand)
export class SetUserPasswordHandler implements ICommandHandler<SetUserPasswordCommand, void> {
  constructor(
    private readonly streams: UserStreams,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly refreshTokens: RefreshTokens,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, userUuid, password, context }: SetUserPasswordCommand): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    const now = this.clock.now();
    await this.streams.execute(
      userUuid,
      { type: 'SetPasswordByStaff', actor: { userUuid: actor.userUuid, role: actor.role }, at: now },
      context,
      now,
      async (tx) => {
        await this.credentials.save(tx.manager, userUuid, passwordHash, now);
        // Staff set a password when an account is compromised or locked out; existing sessions end with it.
        await this.refreshTokens.revokeAllOf(userUuid, now, tx.manager);
      },
    );
  }
}
