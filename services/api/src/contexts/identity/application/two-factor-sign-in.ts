import { Inject, Injectable } from '@nestjs/common';
import { isStaffRole, LIMITS, type TwoFactorInitializationDetails, type UserRole } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { ApiError } from '../../../platform/http';
import { TwoFactorEnrolmentTokens } from '../infrastructure/two-factor/two-factor-enrolment';
import { TwoFactorStore } from '../infrastructure/two-factor/two-factor-store';

/**
 * The second step of sign-in, once the password matched (docs/adr/0018-staff-two-factor-sign-in.md): an account with
 * two-factor sign-in on needs a fresh code or an unused recovery code; with `STAFF_2FA_REQUIRED` on, staff without it
 * get an enrolment token instead of a session. Wrong codes are counted by the sign-in route's rate limit like wrong
 * passwords, because they arrive on the same route.
 */
@Injectable()
export class TwoFactorSignIn {
  constructor(
    private readonly store: TwoFactorStore,
    private readonly enrolmentTokens: TwoFactorEnrolmentTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Answers whether a second factor was given, which the session keeps (staff need it on every refresh). */
  async check(user: { uuid: string; role: UserRole }, otp: string | undefined, at: Date): Promise<boolean> {
    const record = await this.store.find(user.uuid);
    if (record?.status === 'ACTIVE') {
      if (otp === undefined || otp.trim() === '') throw new ApiError('error.otp.required');
      if (!(await this.store.consumeCode(user.uuid, otp, at))) throw new ApiError('error.otp.invalid');
      return true;
    }
    if (this.config.staff2faRequired && isStaffRole(user.role)) {
      const details: TwoFactorInitializationDetails = {
        enrolmentToken: this.enrolmentTokens.issue(user.uuid),
        expiresInSeconds: LIMITS.twoFactorEnrolmentTtlSeconds,
      };
      throw new ApiError('error.otp.initialization.required', { ...details });
    }
    return false;
  }
}
