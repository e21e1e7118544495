import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EmailChangeResponse } from '@kupa/proto';
import { Clock } from '../../../../platform/clock';
import { CommandPipeline } from '../../../../platform/commands';
import { uniqueViolationConstraint } from '../../../../platform/database/unique-violation';
import { ApiError } from '../../../../platform/http';
import { changeEmail } from '../../domain/user.decider';
import { EMAIL_UNIQUE_CONSTRAINT } from '../../infrastructure/persistence/database-errors';
import { OneTimeTokens } from '../../infrastructure/persistence/one-time-tokens';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { UserReader } from '../../projections/users/user-reader';
import { ConfirmEmailChangeCommand } from './confirm-email-change.command';

/**
 * Follows the link mailed to the new address (docs/adr/0100-change-of-e-mail.md): the token names the account and the
 * address it was mailed to, and is used up in the transaction that moves the account there. Every session of the
 * account ends, as after a password reset: the link is opened without a session, so there is none to keep.
 */
@CommandHandler(ConfirmEmailChangeCommand)
export class ConfirmEmailChangeHandler implements ICommandHandler<ConfirmEmailChangeCommand, EmailChangeResponse> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly tokens: OneTimeTokens,
    private readonly refreshTokens: RefreshTokens,
    private readonly users: UserReader,
    private readonly clock: Clock,
  ) {}

  async execute({ token, context }: ConfirmEmailChangeCommand): Promise<EmailChangeResponse> {
    const change = await this.tokens.peekEmailChange(token, this.clock.now());
    if (!change) throw new ApiError('error.confirmation.token.invalid');
    const { userUuid, newEmail } = change;
    const holder = await this.users.findByEmail(newEmail);
    const addressTaken = holder !== null && holder.uuid !== userUuid;
    try {
      await this.pipeline.run(
        userCommand(
          userUuid,
          context,
          (user, { at }) => changeEmail({ newEmail, addressTaken, at }, user),
          async (tx, _events, { at }) => {
            // Used up with the change, so two clicks change once and the second is refused.
            if (!(await this.tokens.consume(tx.manager, token, 'EMAIL_CHANGE', userUuid, at)))
              throw new ApiError('error.confirmation.token.invalid');
            await this.refreshTokens.endSessions(tx.manager, userUuid, at, null);
          },
        ),
      );
    } catch (error) {
      // Another account took the address between the read above and this append: the unique index said no.
      if (uniqueViolationConstraint(error) === EMAIL_UNIQUE_CONSTRAINT)
        throw new ApiError('error.email.change.address.taken');
      throw error;
    }
    return { email: newEmail };
  }
}
