import type { Language, UserRole, UserStatus } from '@kupa/proto';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The users read model: one row per account, kept inline with the user stream's events. */
@Entity({ name: 'users' })
export class UserView {
  @PrimaryColumn({ type: 'uuid' })
  uuid: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'first_name', type: 'text' })
  firstName: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName: string;

  @Column({ type: 'text' })
  role: UserRole;

  @Column({ type: 'text' })
  status: UserStatus;

  @Column({ name: 'profile_id', type: 'char', length: 8 })
  profileId: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'trial_used', type: 'boolean', default: false })
  trialUsed: boolean;

  @Column({ name: 'trial_rejected', type: 'boolean', default: false })
  trialRejected: boolean;

  @Column({ name: 'two_factor_enabled', type: 'boolean', default: false })
  twoFactorEnabled: boolean;

  @Column({ type: 'text', default: 'he' })
  language: Language;

  @Column({ name: 'referrer_profile_id', type: 'char', length: 8, nullable: true })
  referrerProfileId: string | null;
}
