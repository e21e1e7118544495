import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One refresh token of a session family. Every use replaces it with a new one of the same family; a replaced token
 * presented again after the short grace window for concurrent refreshes means it leaked, and the whole family is
 * revoked (ADR 0009).
 */
@Entity({ name: 'refresh_tokens' })
export class RefreshTokenRecord {
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid: string;

  @Column({ name: 'family_id', type: 'uuid' })
  familyId: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'replaced_at', type: 'timestamptz', nullable: true })
  replacedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** The user's session version this token was issued under; an older one than the user's current is dead. */
  @Column({ name: 'session_version', type: 'integer', default: 0 })
  sessionVersion: number;
}
