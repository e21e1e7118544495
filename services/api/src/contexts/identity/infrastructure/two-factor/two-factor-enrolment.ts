import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { LIMITS } from '@kupa/proto';
import { createHmac } from 'node:crypto';
import type { Request } from 'express';
import { type AccessTokenPayload, type Actor, ActorLookup, actorOfAccessToken } from '../../../../platform/auth';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ApiError } from '../../../../platform/http';

interface EnrolmentTokenPayload {
  sub: string;
  purpose: typeof ENROLMENT_PURPOSE;
}

const ENROLMENT_PURPOSE = 'two-factor-enrolment';

/**
 * Enrolment tokens: what a staff member gets instead of a session when `STAFF_2FA_REQUIRED` is on and they have no
 * two-factor sign-in yet (docs/adr/0018-staff-two-factor-sign-in.md). They are JWTs signed with a key derived from
 * the JWT secret for this purpose alone, so the global guard, which knows only the access-token key, never accepts
 * one: they open the enrolment calls and nothing else.
 */
@Injectable()
export class TwoFactorEnrolmentTokens {
  private readonly key: string;

  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.key = createHmac('sha256', config.jwtSecret).update(ENROLMENT_PURPOSE).digest('base64url');
  }

  issue(userUuid: string): string {
    const payload: EnrolmentTokenPayload = { sub: userUuid, purpose: ENROLMENT_PURPOSE };
    return this.jwt.sign(payload, { secret: this.key, expiresIn: LIMITS.twoFactorEnrolmentTtlSeconds });
  }

  /** The user the token was issued to, or null for anything that is not a live enrolment token. */
  subjectOf(token: string): string | null {
    try {
      const payload = this.jwt.verify<EnrolmentTokenPayload>(token, { secret: this.key, algorithms: ['HS256'] });
      return payload.purpose === ENROLMENT_PURPOSE && typeof payload.sub === 'string' ? payload.sub : null;
    } catch {
      return null;
    }
  }
}

/**
 * Guards the calls that enrol an authenticator: they accept an access token of any account (staff, and clients and
 * ambassadors since docs/adr/0098-client-two-factor-and-step-up.md) or a staff enrolment token. The routes are
 * `@Public()` to the global guard, so this guard does the same checks it would (a blocked account stops at once, an
 * ended session is refused) and refuses a staff member's view-as token: looking at a client's portal enrols nothing.
 */
@Injectable()
export class TwoFactorEnrolmentGuard implements CanActivate {
  constructor(
    private readonly jwt: JwtService,
    private readonly enrolmentTokens: TwoFactorEnrolmentTokens,
    private readonly actors: ActorLookup,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: Actor }>();
    const header = request.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
    if (!token) throw new ApiError('error.session.expired');
    const enrolling = this.enrolmentTokens.subjectOf(token);
    const actor = enrolling === null ? await this.accessTokenActor(token) : await this.enrolmentActor(enrolling);
    request.user = actor;
    return true;
  }

  private async enrolmentActor(userUuid: string): Promise<Actor> {
    const record = await this.actors.findByUuid(userUuid);
    if (!record) throw new ApiError('error.session.expired');
    if (record.status === 'BLOCKED') throw new ApiError('error.account.blocked');
    if (record.status !== 'ACTIVE') throw new ApiError('error.user.not.active');
    return { userUuid: record.userUuid, email: record.email, role: record.role, name: record.fullName };
  }

  /** An access token passes the global guard's checks here too: an ended session enrols no authenticator. */
  private async accessTokenActor(token: string): Promise<Actor> {
    let payload: AccessTokenPayload;
    try {
      payload = this.jwt.verify<AccessTokenPayload>(token, { algorithms: ['HS256'] });
    } catch (error) {
      const expired = error instanceof Error && error.name === 'TokenExpiredError';
      throw new ApiError(expired ? 'error.session.expired' : 'error.token.invalid');
    }
    if (typeof payload.sub !== 'string') throw new ApiError('error.token.invalid');
    if (payload.vab !== undefined || payload.vid !== undefined) throw new ApiError('error.view.as.read.only');
    const record = await this.actors.findByUuid(payload.sub);
    return actorOfAccessToken(payload, record, this.config.staff2faRequired);
  }
}
