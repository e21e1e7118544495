import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { TwoFactorActivation } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { enableTwoFactor } from '../../domain/user.decider';
import { matchTotp, normalizeCode } from '../../infrastructure/two-factor/two-factor-codes';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { TwoFactorStore } from '../../infrastructure/two-factor/two-factor-store';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { ActivateTwoFactorCommand } from './activate-two-factor.command';

/**
 * The first code proves the authenticator holds the pending secret: the account's two-factor sign-in turns on
 * (`UserTwoFactorEnabled`) and ten recovery codes are made, answered this once and kept only as hashes. The code's
 * time-step counts as used, so the same code cannot then sign in. Every other session of the account ends
 * (docs/adr/0056-sessions-end-and-second-factor-on-every-path.md).
 */
@CommandHandler(ActivateTwoFactorCommand)
export class ActivateTwoFactorHandler implements ICommandHandler<ActivateTwoFactorCommand, TwoFactorActivation> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly store: TwoFactorStore,
    private readonly clock: Clock,
    private readonly refreshTokens: RefreshTokens,
  ) {}

  async execute({ actor, code, context }: ActivateTwoFactorCommand): Promise<TwoFactorActivation> {
    const record = await this.store.find(actor.userUuid);
    if (record?.status === 'ACTIVE') throw new ApiError('error.otp.already.enabled');
    if (!record) throw new ApiError('error.otp.not.enabled');
    const step = matchTotp(record.secret, normalizeCode(code), this.clock.now(), null);
    if (step === null) throw new ApiError('error.otp.invalid');
    let recoveryCodes: string[] = [];
    await this.pipeline.run(
      userCommand(
        actor.userUuid,
        context,
        (user, { at }) => enableTwoFactor({ at }, user),
        async (tx, _events, { at }) => {
          const codes = await this.store.activate(tx.manager, actor.userUuid, { secret: record.secret, step }, at);
          // Another enrolment replaced the pending secret after the code was checked: this code proves nothing now.
          if (codes === null) throw new ApiError('error.otp.invalid');
          recoveryCodes = codes;
          // Sessions opened with the password alone end; the one that proved the code here stays, as a session
          // with a second factor (an enrolment token names none, so then every session ends).
          const keep = actor.sessionId === undefined ? null : { familyId: actor.sessionId, secondFactor: true };
          await this.refreshTokens.endSessions(tx.manager, actor.userUuid, at, keep);
        },
      ),
    );
    return { recoveryCodes };
  }
}
