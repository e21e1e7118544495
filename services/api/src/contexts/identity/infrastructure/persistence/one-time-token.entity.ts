import { Column, Entity, PrimaryColumn } from 'typeorm';

export type OneTimeTokenPurpose = 'EMAIL_CONFIRMATION' | 'PASSWORD_RESET';

/** An e-mailed single-use token, stored as its SHA-256 so a database leak does not leak working links. */
@Entity({ name: 'identity_tokens' })
export class OneTimeTokenRecord {
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid: string;

  @Column({ type: 'text' })
  purpose: OneTimeTokenPurpose;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
