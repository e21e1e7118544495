import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A user's argon2id password hash. Kept out of events on purpose: events are immutable and replayed everywhere,
 * while a hash must be replaceable and readable by nothing but sign-in.
 */
@Entity({ name: 'credentials' })
export class CredentialRecord {
  @PrimaryColumn({ name: 'user_uuid', type: 'uuid' })
  userUuid: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  /** Moves on when the password changes: tokens of an older version are refused (ADR 0015). */
  @Column({ name: 'session_version', type: 'integer', default: 0 })
  sessionVersion: number;
}
