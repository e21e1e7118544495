import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { setPasswordByStaff } from '../../domain/user.decider';
import { CredentialsRepository } from '../../infrastructure/persistence/credentials.repository';
import { PasswordHasher } from '../../infrastructure/passwords/password-hasher';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { SetUserPasswordCommand } from './set-user-password.command';

@CommandHandler(SetUserPasswordCommand)
export class SetUserPasswordHandler implements ICommandHandler<SetUserPasswordCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly refreshTokens: RefreshTokens,
  ) {}

  async execute({ actor, userUuid, password, context }: SetUserPasswordCommand): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    const by = { userUuid: actor.userUuid, role: actor.role };
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) => setPasswordByStaff({ actor: by, at }, user),
        async (tx, _events, { at }) => {
          await this.credentials.save(tx.manager, userUuid, passwordHash, at);
          // Staff set a password when an account is compromised or locked out; existing sessions end with it.
          await this.refreshTokens.endSessions(tx.manager, userUuid, at, null);
        },
      ),
    );
  }
}
