import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { firstRows } from './query-results';
import { hashSecretToken, newSecretToken } from '../../../../platform/crypto';

/**
 * What a mailed link proves: the address (confirmation), the right to choose a new password (reset), or that the
 * owner reads the new address they asked to move to (change of e-mail, whose token keeps that address).
 */
export type OneTimeTokenPurpose = 'EMAIL_CONFIRMATION' | 'PASSWORD_RESET' | 'EMAIL_CHANGE';

/**
 * E-mailed single-use tokens (account confirmation, password reset) in `identity_tokens`, stored as their SHA-256 so
 * that a database leak does not leak working links.
 */
@Injectable()
export class OneTimeTokens {
  constructor(private readonly dataSource: DataSource) {}

  /** Issues a new token and retires the user's earlier unused ones for the same purpose: only the latest link works. */
  async issue(
    userUuid: string,
    purpose: OneTimeTokenPurpose,
    ttlMs: number,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
    email: string | null = null,
  ): Promise<string> {
    const token = newSecretToken();
    await manager.query(
      `UPDATE identity_tokens SET used_at = $3 WHERE user_uuid = $1 AND purpose = $2 AND used_at IS NULL`,
      [userUuid, purpose, now],
    );
    await manager.query(
      `INSERT INTO identity_tokens (token_hash, user_uuid, purpose, expires_at, created_at, email)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [hashSecretToken(token), userUuid, purpose, new Date(now.getTime() + ttlMs), now, email],
    );
    return token;
  }

  /** The user a still-valid token belongs to, without using it up. */
  async peek(token: string, purpose: OneTimeTokenPurpose, now: Date): Promise<string | null> {
    const rows: Array<{ user_uuid: string }> = await this.dataSource.query(
      `SELECT user_uuid FROM identity_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3`,
      [hashSecretToken(token), purpose, now],
    );
    return rows[0]?.user_uuid ?? null;
  }

  /**
   * Retires the user's unused tokens of one purpose: a password change or reset retires a pending change of e-mail's
   * link, so an owner warned by the notice stops a change they did not ask for (docs/adr/0100-change-of-e-mail.md).
   */
  async retire(manager: EntityManager, userUuid: string, purpose: OneTimeTokenPurpose, now: Date): Promise<void> {
    await manager.query(
      `UPDATE identity_tokens SET used_at = $3 WHERE user_uuid = $1 AND purpose = $2 AND used_at IS NULL`,
      [userUuid, purpose, now],
    );
  }

  /** The user and the address a still-valid change-of-e-mail token was mailed to, without using it up. */
  async peekEmailChange(token: string, now: Date): Promise<{ userUuid: string; newEmail: string } | null> {
    const rows: Array<{ user_uuid: string; email: string | null }> = await this.dataSource.query(
      `SELECT user_uuid, email FROM identity_tokens
       WHERE token_hash = $1 AND purpose = 'EMAIL_CHANGE' AND used_at IS NULL AND expires_at > $2`,
      [hashSecretToken(token), now],
    );
    const row = rows[0];
    return row?.email ? { userUuid: row.user_uuid, newEmail: row.email } : null;
  }

  /**
   * Whose token this was, when it has been used already (and only then): a confirmation link opened a second time
   * can then be told apart from an unknown or expired one.
   */
  async usedBy(token: string, purpose: OneTimeTokenPurpose): Promise<string | null> {
    const rows: Array<{ user_uuid: string }> = await this.dataSource.query(
      `SELECT user_uuid FROM identity_tokens WHERE token_hash = $1 AND purpose = $2 AND used_at IS NOT NULL`,
      [hashSecretToken(token), purpose],
    );
    return rows[0]?.user_uuid ?? null;
  }

  /** Uses the token up; answers false when it was already used, expired or unknown (a concurrent use wins once). */
  async consume(
    manager: EntityManager,
    token: string,
    purpose: OneTimeTokenPurpose,
    userUuid: string,
    now: Date,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `UPDATE identity_tokens SET used_at = $4
       WHERE token_hash = $1 AND purpose = $2 AND user_uuid = $3 AND used_at IS NULL AND expires_at > $4
       RETURNING token_hash`,
      [hashSecretToken(token), purpose, userUuid, now],
    );
    return firstRows(rows).length === 1;
  }
}
