export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

export interface AuthOptions {
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  /** `STAFF_2FA_REQUIRED`: a staff token of a session opened without a second factor is refused. */
  staffSecondFactorRequired: boolean;
}
