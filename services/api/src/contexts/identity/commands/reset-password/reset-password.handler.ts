import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import { CredentialsRepository } from '../../infrastructure/credentials.repository';
import { OneTimeTokens } from '../../infrastructure/one-time-tokens';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { RefreshTokens } from '../../infrastructure/refresh-tokens';
import { UserStreams } from '../../infrastructure/user-streams';
import { ResetPasswordCommand } from './reset-password.command';

@CommandHandler(ResetPasswordCommand)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordCommand, void> {
  constructor(
    private readonly tokens: OneTimeTokens,
    private readonly streams: UserStreams,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly refreshTokens: RefreshTokens,
    private readonly clock: Clock,
  ) {}

  async execute({ request, context }: ResetPasswordCommand): Promise<void> {
    const now = this.clock.now();
    const userUuid = await this.tokens.peek(request.token, 'PASSWORD_RESET', now);
    if (!userUuid) throw new ApiError('error.confirmation.token.invalid');
    const passwordHash = await this.hasher.hash(request.password);
    await this.streams.execute(userUuid, { type: 'ResetPassword', at: now }, context, now, async (tx) => {
      if (!(await this.tokens.consume(tx.manager, request.token, 'PASSWORD_RESET', userUuid, now)))
        throw new ApiError('error.confirmation.token.invalid');
      await this.credentials.save(tx.manager, userUuid, passwordHash, now);
      // Whoever knew the old password may hold a session; a reset ends them all.
      await this.refreshTokens.revokeAllOf(userUuid, now, tx.manager);
    });
  }
}
