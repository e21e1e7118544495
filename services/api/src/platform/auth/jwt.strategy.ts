import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createSecretKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ApiError } from '../http/api-error';
import { type Actor, ActorLookup } from './actor';
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
}

/**
 * Verifies the Bearer access token, then re-reads the user: a token outlives a block, a role change or a password
 * change by at most nothing, because status, role and session version come from the database, not from the token.
 * Tokens without a version (signed before versions existed) count as version 0.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
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
  }

  async validate(payload: AccessTokenPayload): Promise<Actor> {
    const record = typeof payload?.sub === 'string' ? await this.actors.findByUuid(payload.sub) : null;
    if (!record) throw new ApiError('error.session.expired');
    if ((typeof payload.sv === 'number' ? payload.sv : 0) !== record.sessionVersion)
      throw new ApiError('error.session.expired');
    if (record.status === 'BLOCKED') throw new ApiError('error.account.blocked');
    if (record.status !== 'ACTIVE') throw new ApiError('error.user.not.active');
    return {
      userUuid: record.userUuid,
      email: record.email,
      role: record.role,
      name: record.fullName,
      ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}),
    };
  }
}
