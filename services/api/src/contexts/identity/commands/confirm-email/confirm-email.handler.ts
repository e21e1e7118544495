import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ConfirmationResponse } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { ApiError } from '../../../../platform/http';
import { confirmEmail } from '../../domain/user.decider';
import { OneTimeTokens } from '../../infrastructure/persistence/one-time-tokens';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ConfirmEmailCommand } from './confirm-email.command';

@CommandHandler(ConfirmEmailCommand)
export class ConfirmEmailHandler implements ICommandHandler<ConfirmEmailCommand, ConfirmationResponse> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly tokens: OneTimeTokens,
    private readonly clock: Clock,
    private readonly users: UserReader,
  ) {}

  async execute({ token, context }: ConfirmEmailCommand): Promise<ConfirmationResponse> {
    const userUuid = await this.tokens.peek(token, 'EMAIL_CONFIRMATION', this.clock.now());
    if (!userUuid) throw await this.refusalOfUnusableToken(token);
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) => confirmEmail({ at }, user),
        async (tx, _events, { at }) => {
          // Used up in the same transaction as the confirmation, so two clicks confirm once and the second is refused.
          if (!(await this.tokens.consume(tx.manager, token, 'EMAIL_CONFIRMATION', userUuid, at)))
            throw new ApiError('error.confirmation.token.invalid');
        },
      ),
    );
    return { status: 'ACTIVE' };
  }

  /**
   * A link opened again after it confirmed the account is not a broken link: the person is told the account is
   * already confirmed (and may sign in). Anything else unusable (unknown, expired, or used by an account that has
   * since been blocked) stays "invalid or expired".
   */
  private async refusalOfUnusableToken(token: string): Promise<ApiError> {
    const usedBy = await this.tokens.usedBy(token, 'EMAIL_CONFIRMATION');
    const user = usedBy ? await this.users.findByUuid(usedBy) : null;
    return new ApiError(
      user?.status === 'ACTIVE' ? 'error.account.already.active' : 'error.confirmation.token.invalid',
    );
  }
}
