import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { resetTwoFactor } from '../../domain/user.decider';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { TwoFactorStore } from '../../infrastructure/two-factor/two-factor-store';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { ResetTwoFactorCommand } from './reset-two-factor.command';

/**
 * An admin removes another account's two-factor sign-in after a lost phone; the next sign-in needs only the password
 * (or, for staff with `STAFF_2FA_REQUIRED` on, enrolment again). A pending enrolment is dropped with it, and every
 * session of the account ends; a client or ambassador is told by mail (the identity mails processor).
 */
@CommandHandler(ResetTwoFactorCommand)
export class ResetTwoFactorHandler implements ICommandHandler<ResetTwoFactorCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly store: TwoFactorStore,
    private readonly refreshTokens: RefreshTokens,
  ) {}

  async execute({ actor, userUuid, context }: ResetTwoFactorCommand): Promise<void> {
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) => resetTwoFactor({ actor, at }, user),
        async (tx, events, { at }) => {
          await this.store.remove(tx.manager, userUuid);
          // A lost phone may be a stolen one: whoever holds the account's sessions is signed out with it.
          if (events.length > 0) await this.refreshTokens.endSessions(tx.manager, userUuid, at, null, 'staff');
        },
      ),
    );
  }
}
