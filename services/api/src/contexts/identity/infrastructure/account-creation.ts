import { Injectable } from '@nestjs/common';
import type { Language, UserRole } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../../platform/auth';
import { Clock } from '../../../platform/clock';
import { ApiError } from '../../../platform/http';
import { UserReader } from '../projections/users/user-reader';
import { CredentialsRepository } from './credentials.repository';
import { EMAIL_UNIQUE_CONSTRAINT, PROFILE_ID_UNIQUE_CONSTRAINT, uniqueViolationConstraint } from './database-errors';
import { CONFIRMATION_TOKEN_TTL_MS } from './identity-mails';
import { OneTimeTokens } from './one-time-tokens';
import { PasswordHasher } from './password-hasher';
import { PROFILE_ID_ATTEMPTS, randomProfileId } from './profile-ids';
import { UserStreams } from './user-streams';

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
  /** Set for self-registered accounts: the token the confirmation mail carries. */
  confirmationToken: string | null;
}

/**
 * Creates an account: the creation event, its password hash and (for a sign-up) its confirmation token in one
 * transaction, with a fresh profile ID retried on the rare collision and a taken e-mail answered as such.
 */
@Injectable()
export class AccountCreation {
  constructor(
    private readonly streams: UserStreams,
    private readonly reader: UserReader,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly tokens: OneTimeTokens,
    private readonly clock: Clock,
  ) {}

  async create(account: NewAccount, kind: AccountKind, context: RequestContext): Promise<CreatedAccount> {
    if (await this.reader.findByEmail(account.email)) throw new ApiError('error.login.already.in.use');
    const passwordHash = await this.hasher.hash(account.password);
    const userUuid = randomUUID();
    for (let attempt = 1; ; attempt++) {
      const now = this.clock.now();
      const fields = {
        userUuid,
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        profileId: randomProfileId(),
        language: account.language,
        at: now,
      };
      let confirmationToken: string | null = null;
      try {
        await this.streams.execute(
          userUuid,
          kind.kind === 'self-registered'
            ? { type: 'RegisterUser', ...fields, referrerProfileId: kind.referrerProfileId }
            : { type: 'CreateUserByStaff', ...fields, role: kind.role },
          context,
          now,
          async (tx) => {
            await this.credentials.save(tx.manager, userUuid, passwordHash, now);
            if (kind.kind === 'self-registered') {
              confirmationToken = await this.tokens.issue(
                userUuid,
                'EMAIL_CONFIRMATION',
                CONFIRMATION_TOKEN_TTL_MS,
                now,
                tx.manager,
              );
            }
          },
        );
        return { userUuid, confirmationToken };
      } catch (error) {
        const constraint = uniqueViolationConstraint(error);
        if (constraint === EMAIL_UNIQUE_CONSTRAINT) throw new ApiError('error.login.already.in.use');
        if (constraint === PROFILE_ID_UNIQUE_CONSTRAINT && attempt < PROFILE_ID_ATTEMPTS) continue;
        throw error;
      }
    }
  }
}
