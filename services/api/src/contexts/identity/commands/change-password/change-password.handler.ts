import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { TwoFactorStepUp } from '../../application/two-factor-step-up';
import { changePassword } from '../../domain/user.decider';
import { CredentialsRepository } from '../../infrastructure/persistence/credentials.repository';
import { OneTimeTokens } from '../../infrastructure/persistence/one-time-tokens';
import { PasswordHasher } from '../../infrastructure/passwords/password-hasher';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { ChangePasswordCommand } from './change-password.command';

@CommandHandler(ChangePasswordCommand)
export class ChangePasswordHandler implements ICommandHandler<ChangePasswordCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly refreshTokens: RefreshTokens,
    private readonly stepUp: TwoFactorStepUp,
    private readonly tokens: OneTimeTokens,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, request, context }: ChangePasswordCommand): Promise<void> {
    const currentHash = await this.credentials.findHash(actor.userUuid);
    if (!currentHash || !(await this.hasher.verify(currentHash, request.oldPassword)))
      throw new ApiError('error.password.current.incorrect');
    // After the password, so that a mistyped password does not spend the code.
    await this.stepUp.confirm(actor.userUuid, request.otpCode, this.clock.now());
    const passwordHash = await this.hasher.hash(request.password);
    await this.pipeline.run(
      userCommand(
        actor.userUuid,
        context,
        (user, { at }) => changePassword({ at }, user),
        async (tx, _events, { at }) => {
          await this.credentials.save(tx.manager, actor.userUuid, passwordHash, at);
          // Other sessions may be someone who learnt the old password; the session that made the change stays.
          await this.refreshTokens.endSessions(
            tx.manager,
            actor.userUuid,
            at,
            actor.sessionId === undefined ? null : { familyId: actor.sessionId },
          );
          // A change of e-mail asked for with the old password stops here too (docs/adr/0100-change-of-e-mail.md).
          await this.tokens.retire(tx.manager, actor.userUuid, 'EMAIL_CHANGE', at);
        },
      ),
    );
  }
}
