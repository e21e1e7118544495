import { Injectable } from '@nestjs/common';
import type { Language, UserRole } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../platform/auth';
import { CommandPipeline } from '../../../platform/commands';
import { ApiError } from '../../../platform/http';
import { createUserByStaff, registerUser } from '../domain/user.decider';
import { UserReader } from '../projections/users/user-reader';
import { CredentialsRepository } from '../infrastructure/persistence/credentials.repository';
import { uniqueViolationConstraint } from '../../../platform/database/unique-violation';
import { EMAIL_UNIQUE_CONSTRAINT, PROFILE_ID_UNIQUE_CONSTRAINT } from '../infrastructure/persistence/database-errors';
import { PasswordHasher } from '../infrastructure/passwords/password-hasher';
import { PROFILE_ID_ATTEMPTS, randomProfileId } from '../infrastructure/accounts/profile-ids';
import { userCommand } from '../infrastructure/streams/user-streams';

export interface NewAccount {
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  language: Language;
}

export type AccountKind =
  { kind: 'self-registered'; referrerProfileId: string | null } | { kind: 'staff-created'; role: UserRole };

export interface CreatedAccount {
  userUuid: string;
}

/**
 * Creates an account: the creation event and its password hash in one transaction (the confirmation mail of a
 * sign-up follows from the event, through the identity mail processor), with a fresh profile ID retried on the rare
 * collision and a taken e-mail answered as such.
 */
@Injectable()
export class AccountCreation {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reader: UserReader,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
  ) {}

  async create(account: NewAccount, kind: AccountKind, context: RequestContext): Promise<CreatedAccount> {
    if (await this.reader.findByEmail(account.email)) throw new ApiError('error.login.already.in.use');
    const { password, ...profile } = account;
    const passwordHash = await this.hasher.hash(password);
    const userUuid = randomUUID();
    for (let attempt = 1; ; attempt++) {
      const profileId = randomProfileId();
      try {
        await this.pipeline.run(
          userCommand(
            userUuid,
            context,
            (user, { at }) => {
              const fields = { ...profile, userUuid, profileId, at };
              return kind.kind === 'self-registered'
                ? registerUser({ ...fields, referrerProfileId: kind.referrerProfileId }, user)
                : createUserByStaff({ ...fields, role: kind.role }, user);
            },
            async (tx, _events, { at }) => {
              await this.credentials.save(tx.manager, userUuid, passwordHash, at);
            },
          ),
        );
        return { userUuid };
      } catch (error) {
        const constraint = uniqueViolationConstraint(error);
        if (constraint === EMAIL_UNIQUE_CONSTRAINT) throw new ApiError('error.login.already.in.use');
        if (constraint === PROFILE_ID_UNIQUE_CONSTRAINT && attempt < PROFILE_ID_ATTEMPTS) continue;
        throw error;
      }
    }
  }
}
