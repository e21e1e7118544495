import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { resetPassword } from '../../domain/user.decider';
import { CredentialsRepository } from '../../infrastructure/persistence/credentials.repository';
import { OneTimeTokens } from '../../infrastructure/persistence/one-time-tokens';
import { PasswordHasher } from '../../infrastructure/passwords/password-hasher';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { ResetPasswordCommand } from './reset-password.command';

@CommandHandler(ResetPasswordCommand)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly tokens: OneTimeTokens,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly refreshTokens: RefreshTokens,
    private readonly clock: Clock,
  ) {}

  async execute({ request, context }: ResetPasswordCommand): Promise<void> {
    // The token names the stream to lock; it is consumed under that lock, so two uses reset the password once.
    const userUuid = await this.tokens.peek(request.token, 'PASSWORD_RESET', this.clock.now());
    if (!userUuid) throw new ApiError('error.confirmation.token.invalid');
    const passwordHash = await this.hasher.hash(request.password);
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) => resetPassword({ at }, user),
        async (tx, _events, { at }) => {
          if (!(await this.tokens.consume(tx.manager, request.token, 'PASSWORD_RESET', userUuid, at)))
            throw new ApiError('error.confirmation.token.invalid');
          await this.credentials.save(tx.manager, userUuid, passwordHash, at);
          // Whoever knew the old password may hold a session; a reset ends them all.
          await this.refreshTokens.endSessions(tx.manager, userUuid, at, null);
          await this.tokens.retire(tx.manager, userUuid, 'EMAIL_CHANGE', at);
        },
      ),
    );
  }
}
