import { Injectable } from '@nestjs/common';
import { LIMITS } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError } from '../../../platform/http';
import { hashSecretToken, newSecretToken } from './secret-token';

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

/** A refresh answer: the user, and the token that replaces the presented one (none for a concurrent duplicate). */
export interface Rotation {
  userUuid: string;
  issued: IssuedRefreshToken | null;
}

type RotationOutcome = { kind: 'dead' } | { kind: 'reused' } | ({ kind: 'rotated' } & Rotation);

interface RefreshTokenRow {
  user_uuid: string;
  family_id: string;
  expires_at: Date;
  replaced_at: Date | null;
  revoked_at: Date | null;
}

/**
 * Opaque refresh tokens in families (docs/product.md, Identity): sign-in starts a family, every refresh replaces the
 * presented token, and a replaced token presented again after `REFRESH_REUSE_GRACE_MS` is taken as stolen, which
 * revokes the whole family.
 */
@Injectable()
export class RefreshTokens {
  constructor(private readonly dataSource: DataSource) {}

  async startFamily(userUuid: string, now: Date): Promise<IssuedRefreshToken> {
    return this.insert(this.dataSource.manager, userUuid, randomUUID(), now);
  }

  /**
   * Replaces a live token with a new one of its family. A token replaced moments ago keeps the session without a
   * replacement of its own (the request that replaced it carries the successor); any other token ends the session
   * (401).
   */
  async rotate(token: string, now: Date): Promise<Rotation> {
    const outcome = await this.dataSource.transaction(async (manager): Promise<RotationOutcome> => {
      const rows: RefreshTokenRow[] = await manager.query(
        `SELECT user_uuid, family_id, expires_at, replaced_at, revoked_at FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
        [hashSecretToken(token)],
      );
      const row = rows[0];
      if (!row || row.revoked_at !== null || row.expires_at.getTime() <= now.getTime()) return { kind: 'dead' };
      if (row.replaced_at !== null) {
        if (now.getTime() - row.replaced_at.getTime() < REFRESH_REUSE_GRACE_MS) {
          return { kind: 'rotated', userUuid: row.user_uuid, issued: null };
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
        issued: await this.insert(manager, row.user_uuid, row.family_id, now),
      };
    });
    // A reused token's family revocation is committed above before the refusal, so the refusal cannot undo it.
    if (outcome.kind !== 'rotated') throw new ApiError('error.session.expired');
    return { userUuid: outcome.userUuid, issued: outcome.issued };
  }

  /** Ends the session the token belongs to (logout); unknown tokens are ignored. */
  async revokeFamilyOf(token: string, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE refresh_tokens SET revoked_at = $2
       WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`,
      [hashSecretToken(token), now],
    );
  }

  /** Ends every session of a user (after a password reset or a password set by staff). */
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
    familyId: string,
    now: Date,
  ): Promise<IssuedRefreshToken> {
    const token = newSecretToken();
    const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_MS);
    await manager.query(
      `INSERT INTO refresh_tokens (token_hash, user_uuid, family_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [hashSecretToken(token), userUuid, familyId, expiresAt, now],
    );
    return { token, expiresAt };
  }
}
