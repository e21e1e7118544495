import { Injectable } from '@nestjs/common';
import { LIMITS } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError } from '../../../../platform/http';
import { hashSecretToken, newSecretToken } from '../persistence/secret-token';
import { ActorCache } from '../access/actor-cache';

const REFRESH_TOKEN_TTL_MS = LIMITS.refreshTokenTtlDays * 24 * 60 * 60 * 1000;

/**
 * How long a replaced token still opens its session (ADR 0009). Two tabs of one app refresh at the same moment with
 * the same cookie; the one that loses the race presents a token the other just replaced. Within this window that is
 * concurrency, not theft: it gets an access token but no new refresh token. Later, it is reuse and ends the family.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface IssuedRefreshToken {
  token: string;
  expiresAt: Date;
}

/**
 * The session an access token is signed for: its refresh family (`sid`) and the user's session version (`sv`) at
 * issue. The guard refuses a version older than the user's current one (ADR 0015).
 */
export interface SessionRef {
  familyId: string;
  sessionVersion: number;
}

/** A refresh answer: the user, its session, and the token that replaces the presented one (none for a duplicate). */
export interface Rotation {
  userUuid: string;
  session: SessionRef;
  issued: IssuedRefreshToken | null;
}

type RotationOutcome = { kind: 'dead' } | { kind: 'reused' } | ({ kind: 'rotated' } & Rotation);

interface RefreshTokenRow {
  user_uuid: string;
  family_id: string;
  expires_at: Date;
  replaced_at: Date | null;
  revoked_at: Date | null;
  session_version: number;
  current_session_version: number;
}

/**
 * Opaque refresh tokens in families (docs/product.md, Identity): sign-in starts a family, every refresh replaces the
 * presented token, and a replaced token presented again after `REFRESH_REUSE_GRACE_MS` is taken as stolen, which
 * revokes the whole family.
 */
@Injectable()
export class RefreshTokens {
  constructor(
    private readonly dataSource: DataSource,
    private readonly actors: ActorCache,
  ) {}

  /** Starts a session (sign-in) under the user's current session version. */
  async startFamily(userUuid: string, now: Date): Promise<IssuedRefreshToken & SessionRef> {
    const rows: Array<{ session_version: number }> = await this.dataSource.query(
      `SELECT session_version FROM credentials WHERE user_uuid = $1`,
      [userUuid],
    );
    const session: SessionRef = { familyId: randomUUID(), sessionVersion: rows[0]?.session_version ?? 0 };
    return { ...(await this.insert(this.dataSource.manager, userUuid, session, now)), ...session };
  }

  /**
   * Replaces a live token with a new one of its family. A token replaced moments ago keeps the session without a
   * replacement of its own (the request that replaced it carries the successor); any other token ends the session
   * (401). So does a token of an older session version than the user's: a rotation that raced a password change
   * may have slipped a successor past the revocation, and the version still stops it.
   */
  async rotate(token: string, now: Date): Promise<Rotation> {
    const outcome = await this.dataSource.transaction(async (manager): Promise<RotationOutcome> => {
      const rows: RefreshTokenRow[] = await manager.query(
        `SELECT t.user_uuid, t.family_id, t.expires_at, t.replaced_at, t.revoked_at, t.session_version,
                coalesce(c.session_version, 0) AS current_session_version
         FROM refresh_tokens t LEFT JOIN credentials c ON c.user_uuid = t.user_uuid
         WHERE t.token_hash = $1 FOR UPDATE OF t`,
        [hashSecretToken(token)],
      );
      const row = rows[0];
      if (
        !row ||
        row.revoked_at !== null ||
        row.expires_at.getTime() <= now.getTime() ||
        row.session_version !== row.current_session_version
      )
        return { kind: 'dead' };
      const session: SessionRef = { familyId: row.family_id, sessionVersion: row.session_version };
      if (row.replaced_at !== null) {
        if (now.getTime() - row.replaced_at.getTime() < REFRESH_REUSE_GRACE_MS) {
          return { kind: 'rotated', userUuid: row.user_uuid, session, issued: null };
        }
        await this.revokeFamily(manager, row.family_id, now);
        return { kind: 'reused' };
      }
      await manager.query(`UPDATE refresh_tokens SET replaced_at = $2 WHERE token_hash = $1`, [
        hashSecretToken(token),
        now,
      ]);
      return {
        kind: 'rotated',
        userUuid: row.user_uuid,
        session,
        issued: await this.insert(manager, row.user_uuid, session, now),
      };
    });
    // A reused token's family revocation is committed above before the refusal, so the refusal cannot undo it.
    if (outcome.kind !== 'rotated') throw new ApiError('error.session.expired');
    return { userUuid: outcome.userUuid, session: outcome.session, issued: outcome.issued };
  }

  /** Ends the session the token belongs to (logout); unknown tokens are ignored. */
  async revokeFamilyOf(token: string, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE refresh_tokens SET revoked_at = $2
       WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`,
      [hashSecretToken(token), now],
    );
  }

  /**
   * Ends the user's sessions when the password changes, inside the transaction that stores the new hash. The
   * session version moves on, so every access token signed before is refused at its next request; every refresh
   * family is revoked except `keepFamilyId` (the session that changed its own password), whose live tokens move to
   * the new version so that its next refresh signs a valid access token. A rotation running at the same moment may
   * insert a successor this revocation does not see; it carries the old version and is refused all the same.
   */
  async endSessions(manager: EntityManager, userUuid: string, now: Date, keepFamilyId: string | null): Promise<void> {
    this.actors.forget(userUuid);
    await manager.query(`UPDATE credentials SET session_version = session_version + 1 WHERE user_uuid = $1`, [
      userUuid,
    ]);
    await manager.query(
      `UPDATE refresh_tokens SET revoked_at = $2
       WHERE user_uuid = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $3::uuid`,
      [userUuid, now, keepFamilyId],
    );
    if (keepFamilyId === null) return;
    await manager.query(
      `UPDATE refresh_tokens SET session_version = (SELECT session_version FROM credentials WHERE user_uuid = $1)
       WHERE user_uuid = $1 AND family_id = $2 AND revoked_at IS NULL`,
      [userUuid, keepFamilyId],
    );
  }

  /** Revokes every refresh family of a user (a blocked user's refresh); access tokens are stopped by the status. */
  async revokeAllOf(userUuid: string, now: Date, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.query(`UPDATE refresh_tokens SET revoked_at = $2 WHERE user_uuid = $1 AND revoked_at IS NULL`, [
      userUuid,
      now,
    ]);
  }

  private async revokeFamily(manager: EntityManager, familyId: string, now: Date): Promise<void> {
    await manager.query(`UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`, [
      familyId,
      now,
    ]);
  }

  private async insert(
    manager: EntityManager,
    userUuid: string,
    session: SessionRef,
    now: Date,
  ): Promise<IssuedRefreshToken> {
    const token = newSecretToken();
    const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_MS);
    await manager.query(
      `INSERT INTO refresh_tokens (token_hash, user_uuid, family_id, expires_at, created_at, session_version)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [hashSecretToken(token), userUuid, session.familyId, expiresAt, now, session.sessionVersion],
    );
    return { token, expiresAt };
  }
}
