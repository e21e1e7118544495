import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { disableTwoFactor } from '../../domain/user.decider';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { TwoFactorStepUp } from '../../application/two-factor-step-up';
import { TwoFactorStore } from '../../infrastructure/two-factor/two-factor-store';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { DisableTwoFactorCommand } from './disable-two-factor.command';

/**
 * An account's owner turns their own two-factor sign-in off. A signed-in session alone is not enough: the call needs a
 * fresh code (or a recovery code), so a session left open on a shared computer cannot remove the second factor
 * (step-up, docs/adr/0098-client-two-factor-and-step-up.md).
 */
@CommandHandler(DisableTwoFactorCommand)
export class DisableTwoFactorHandler implements ICommandHandler<DisableTwoFactorCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly store: TwoFactorStore,
    private readonly clock: Clock,
    private readonly refreshTokens: RefreshTokens,
    private readonly stepUp: TwoFactorStepUp,
  ) {}

  async execute({ actor, code, context }: DisableTwoFactorCommand): Promise<void> {
    const record = await this.store.find(actor.userUuid);
    if (record?.status !== 'ACTIVE') throw new ApiError('error.otp.not.enabled');
    await this.stepUp.confirm(actor.userUuid, code, this.clock.now());
    await this.pipeline.run(
      userCommand(
        actor.userUuid,
        context,
        (user, { at }) => disableTwoFactor({ at }, user),
        async (tx, _events, { at }) => {
          await this.store.remove(tx.manager, actor.userUuid);
          // The account's sign-in just got weaker: every other session ends, the one that gave the code stays.
          const keep = actor.sessionId === undefined ? null : { familyId: actor.sessionId };
          await this.refreshTokens.endSessions(tx.manager, actor.userUuid, at, keep);
        },
      ),
    );
  }
}
