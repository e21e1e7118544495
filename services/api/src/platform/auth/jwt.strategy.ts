import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createSecretKey } from 'node:crypto';
import { isStaffRole, STAFF_SESSION_END_CODES, type StaffSessionEndCode } from '@kupa/proto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ApiError } from '../http/api-error';
import { type Actor, ActorLookup, type ActorRecord } from './actor';
import { AUTH_OPTIONS, type AuthOptions } from './auth-options';
import { Inject } from '@nestjs/common';

export interface AccessTokenPayload {
  sub: string;
  email: string;
  role: string;
  /** The session (refresh-token family) the token was signed for. */
  sid?: string;
  /** The user's session version at signing; tokens signed before the version moved on are refused. */
  sv?: number;
  /** Whether the session was opened with a second factor; staff tokens need it under `STAFF_2FA_REQUIRED`. */
  tf?: boolean;
  /** A view-as token (ADR 0092): the staff member looking at the subject's portal, read only. */
  vab?: string;
  /** The view-as opening the token belongs to. */
  vid?: string;
  /** Expiry (seconds since the epoch): a token without one would never expire and is refused. */
  exp?: number;
}

/**
 * Verifies the Bearer access token, then re-reads the user: a token outlives a block, a role change or a password
 * change by at most nothing, because status, role and session version come from the database, not from the token.
 * Tokens without a version (signed before versions existed) count as version 0. A token of a session ended since
 * (logout, a stolen refresh token) is refused by the same read, and so is a staff token of a session opened without a
 * second factor when staff must have one (docs/adr/0056-sessions-end-and-second-factor-on-every-path.md).
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  private readonly staffSecondFactorRequired: boolean;

  constructor(
    private readonly actors: ActorLookup,
    @Inject(AUTH_OPTIONS) options: AuthOptions,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      ignoreExpiration: false,
      // A key object made once: given a string, jsonwebtoken first tries to parse it as a public key on every
      // verification and only then falls back to a secret, which cost a third of a millisecond per request.
      // passport-jwt hands the key to jsonwebtoken unchanged; only its types predate key objects.
      secretOrKey: createSecretKey(Buffer.from(options.jwtSecret, 'utf8')) as unknown as string,
      algorithms: ['HS256'],
    });
    this.staffSecondFactorRequired = options.staffSecondFactorRequired;
  }

  async validate(payload: AccessTokenPayload): Promise<Actor> {
    const record = typeof payload?.sub === 'string' ? await this.actors.findByUuid(payload.sub) : null;
    const actor = actorOfAccessToken(payload, record, this.staffSecondFactorRequired);
    if (payload.vab === undefined && payload.vid === undefined) return actor;
    const staff = typeof payload.vab === 'string' ? await this.actors.findByUuid(payload.vab) : null;
    return viewAsActorOf(payload, actor, staff);
  }
}

/**
 * The checks every access token passes after its signature, wherever it is accepted (the global guard, and the
 * enrolment guard that also admits enrolment tokens): the user's current state decides, not the token.
 */
export function actorOfAccessToken(
  payload: AccessTokenPayload,
  record: ActorRecord | null,
  staffSecondFactorRequired: boolean,
): Actor {
  // jsonwebtoken checks `exp` only when a token has one; ours always do, so one without is not ours to trust.
  if (typeof payload?.exp !== 'number') throw new ApiError('error.token.invalid');
  if (!record || record.userUuid !== payload.sub) throw new ApiError('error.session.expired');
  if ((typeof payload.sv === 'number' ? payload.sv : 0) !== record.sessionVersion)
    throw new ApiError('error.session.expired');
  if (typeof payload.sid === 'string' && record.endedSessionIds.includes(payload.sid))
    throw new ApiError(staffEndCodeOf(record, payload.sid) ?? 'error.session.ended');
  if (record.status === 'BLOCKED') throw new ApiError('error.account.blocked');
  if (record.status !== 'ACTIVE') throw new ApiError('error.user.not.active');
  if (staffSecondFactorRequired && isStaffRole(record.role) && payload.tf !== true)
    throw new ApiError('error.session.second.factor.required');
  return {
    userUuid: record.userUuid,
    email: record.email,
    role: record.role,
    name: record.fullName,
    ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}),
  };
}

/** The code a session staff ended tells its owner (ADR 0099), when staff ended it. */
function staffEndCodeOf(record: ActorRecord, sessionId: string): StaffSessionEndCode | null {
  const code = record.sessionEndCodes?.[sessionId];
  return (Object.values(STAFF_SESSION_END_CODES) as string[]).includes(code ?? '')
    ? (code as StaffSessionEndCode)
    : null;
}

/**
 * A view-as token works only while the staff member who opened it may still do so: active, admin or manager, and
 * their password unchanged since (a blocked or demoted staff member's open views end at once). The client's own
 * checks have already passed; the view never carries a session, so the refresh endpoint has nothing to renew.
 */
export function viewAsActorOf(payload: AccessTokenPayload, actor: Actor, staff: ActorRecord | null): Actor {
  if (typeof payload.vab !== 'string' || typeof payload.vid !== 'string' || actor.sessionId !== undefined)
    throw new ApiError('error.token.invalid');
  if (!staff || staff.userUuid !== payload.vab || staff.status !== 'ACTIVE')
    throw new ApiError('error.session.expired');
  if (staff.role !== 'ADMIN' && staff.role !== 'MANAGER') throw new ApiError('error.session.expired');
  if (isStaffRole(actor.role)) throw new ApiError('error.token.invalid');
  return {
    ...actor,
    viewAs: {
      viewId: payload.vid,
      staff: { userUuid: staff.userUuid, email: staff.email, role: staff.role, name: staff.fullName },
    },
  };
}
