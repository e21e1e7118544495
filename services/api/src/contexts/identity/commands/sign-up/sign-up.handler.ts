import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DEFAULT_LANGUAGE, LIMITS, type User } from '@kupa/proto';
import { AccountCreation } from '../../application/account-creation';
import { UserReader } from '../../projections/users/user-reader';
import { SignUpCommand } from './sign-up.command';

@CommandHandler(SignUpCommand)
export class SignUpHandler implements ICommandHandler<SignUpCommand, User> {
  constructor(
    private readonly accounts: AccountCreation,
    private readonly reader: UserReader,
  ) {}

  async execute({ request, context }: SignUpCommand): Promise<User> {
    const language = request.language ?? DEFAULT_LANGUAGE;
    // The confirmation mail follows from the UserRegistered event, sent by the identity mail processor.
    const created = await this.accounts.create(
      {
        email: request.email,
        firstName: request.firstName,
        lastName: request.lastName,
        password: request.password,
        language,
      },
      { kind: 'self-registered', referrerProfileId: await this.knownReferrer(request.referralToken) },
      context,
    );
    const view = await this.reader.findByUuid(created.userUuid);
    if (!view) throw new Error(`User ${created.userUuid} missing right after sign-up`);
    return this.reader.toUser(view);
  }

  /** A referral link may be stale or mistyped; an unknown profile ID is ignored rather than blocking the sign-up. */
  private async knownReferrer(referralToken: string | undefined): Promise<string | null> {
    if (!referralToken || referralToken.length !== LIMITS.profileIdDigits) return null;
    const referrer = await this.reader.findByProfileId(referralToken);
    return referrer ? referrer.profileId : null;
  }
}
