import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/commands';
import { resetTwoFactor } from '../../domain/user.decider';
import { TwoFactorStore } from '../../infrastructure/two-factor/two-factor-store';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { ResetTwoFactorCommand } from './reset-two-factor.command';

/**
 * An admin removes another staff member's two-factor sign-in after a lost phone; the next sign-in needs only the
 * password (or, with `STAFF_2FA_REQUIRED` on, enrolment again). A pending enrolment is dropped with it.
 */
@CommandHandler(ResetTwoFactorCommand)
export class ResetTwoFactorHandler implements ICommandHandler<ResetTwoFactorCommand, void> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly store: TwoFactorStore,
  ) {}

  async execute({ actor, userUuid, context }: ResetTwoFactorCommand): Promise<void> {
    const by = { userUuid: actor.userUuid, role: actor.role };
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) => resetTwoFactor({ actor: by, at }, user),
        async (tx) => {
          await this.store.remove(tx.manager, userUuid);
        },
      ),
    );
  }
}
