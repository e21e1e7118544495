import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { CONFIRMATION_TOKEN_TTL_MS, IdentityMails } from '../../infrastructure/identity-mails';
import { OneTimeTokens } from '../../infrastructure/one-time-tokens';
import { UserReader } from '../../projections/users/user-reader';
import { ResendConfirmationCommand } from './resend-confirmation.command';

@CommandHandler(ResendConfirmationCommand)
export class ResendConfirmationHandler implements ICommandHandler<ResendConfirmationCommand, void> {
  constructor(
    private readonly reader: UserReader,
    private readonly tokens: OneTimeTokens,
    private readonly mails: IdentityMails,
    private readonly clock: Clock,
  ) {}

  async execute({ request }: ResendConfirmationCommand): Promise<void> {
    const user = await this.reader.findByEmail(request.email);
    // Unknown, active and blocked addresses get the same silent 204 as a sent mail, so the call enumerates nobody:
    // only the owner of a pending account, reading its mailbox, learns that a link went out.
    if (user?.status !== 'NON_VERIFIED') return;
    const token = await this.tokens.issue(user.uuid, 'EMAIL_CONFIRMATION', CONFIRMATION_TOKEN_TTL_MS, this.clock.now());
    await this.mails.sendConfirmation(
      { email: user.email, firstName: user.firstName, language: request.language ?? user.language },
      token,
    );
  }
}
