import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '../../../../platform/clock';
import { ApiError } from '../../../../platform/http';
import { CredentialsRepository } from '../../infrastructure/persistence/credentials.repository';
import { PasswordHasher } from '../../infrastructure/passwords/password-hasher';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { Sessions } from '../../infrastructure/sessions/sessions';
import { UserSessions } from '../../infrastructure/sessions/user-sessions';
import { TwoFactorSignIn } from '../../application/two-factor-sign-in';
import { UserReader } from '../../projections/users/user-reader';
import { SignInCommand, type SignInResult } from './sign-in.command';

@CommandHandler(SignInCommand)
export class SignInHandler implements ICommandHandler<SignInCommand, SignInResult> {
  constructor(
    private readonly reader: UserReader,
    private readonly credentials: CredentialsRepository,
    private readonly hasher: PasswordHasher,
    private readonly refreshTokens: RefreshTokens,
    private readonly sessions: Sessions,
    private readonly clock: Clock,
    private readonly twoFactor: TwoFactorSignIn,
    private readonly userSessions: UserSessions,
  ) {}

  async execute({ request, origin }: SignInCommand): Promise<SignInResult> {
    const user = await this.reader.findByEmail(request.email);
    const passwordHash = user ? await this.credentials.findHash(user.uuid) : null;
    const valid = passwordHash
      ? await this.hasher.verify(passwordHash, request.password)
      : await this.hasher.verifyNothing(request.password);
    if (!user || !valid) throw new ApiError('error.auth.bad.credentials');
    // Status is told only after the password matched, so it reveals nothing to someone guessing.
    if (user.status === 'BLOCKED') throw new ApiError('error.account.blocked');
    if (user.status === 'NON_VERIFIED') throw new ApiError('error.user.email.not.verified');
    const secondFactor = await this.twoFactor.check(user, request.otp, this.clock.now());
    const refresh = await this.refreshTokens.startFamily(user, this.clock.now(), secondFactor);
    if (origin) await this.userSessions.recordSignIn(user, refresh.familyId, origin, this.clock.now());
    return {
      response: {
        accessToken: this.sessions.accessToken(user, refresh),
        userUuid: user.uuid,
        email: user.email,
        userRole: user.role,
      },
      refresh,
    };
  }
}
