import { Injectable } from '@nestjs/common';
import { DEFAULT_LANGUAGE, type UserRole } from '@kupa/proto';
import { systemContext } from '../../../platform/auth';
import { CommandPipeline } from '../../../platform/commands';
import { changeRole, changeStatus } from '../domain/user.decider';
import { AccountCreation } from './account-creation';
import { StaffPasswords } from './staff-passwords';
import { CredentialsRepository } from '../infrastructure/persistence/credentials.repository';
import { PasswordHasher } from '../infrastructure/passwords/password-hasher';
import { userCommand } from '../infrastructure/streams/user-streams';
import { UserReader } from '../projections/users/user-reader';

export interface EnsuredAccount {
  email: string;
  password: string;
  role: UserRole;
  firstName: string;
  lastName: string;
}

export interface EnsureOutcome {
  userUuid: string;
  created: boolean;
}

/**
 * Makes an account exist, ACTIVE, with a given role and password, acting as the system: the startup bootstrap
 * (ADMIN_EMAIL/ADMIN_PASSWORD, demo data) and `kupa users create-admin` use it. Every change goes through events.
 */
@Injectable()
export class AdminAccounts {
  constructor(
    private readonly accounts: AccountCreation,
    private readonly reader: UserReader,
    private readonly pipeline: CommandPipeline,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly passwords: StaffPasswords,
  ) {}

  /** Creates or repairs an admin; what `kupa users create-admin --email … --password …` runs. */
  createAdmin(email: string, password: string): Promise<EnsureOutcome> {
    return this.ensure({
      email: email.trim().toLowerCase(),
      password,
      role: 'ADMIN',
      firstName: 'Kupa',
      lastName: 'Admin',
    });
  }

  /**
   * Creates the account when its e-mail is free and otherwise leaves it alone: demo accounts may have been changed
   * on purpose (a blocked demo client), and a restart must not undo that.
   */
  async ensureIfMissing(account: EnsuredAccount): Promise<EnsureOutcome> {
    const existing = await this.reader.findByEmail(account.email);
    if (existing) return { userUuid: existing.uuid, created: false };
    return this.create(account);
  }

  async ensure(account: EnsuredAccount): Promise<EnsureOutcome> {
    const existing = await this.reader.findByEmail(account.email);
    if (!existing) return this.create(account);
    const context = systemContext();
    const userUuid = existing.uuid;
    await this.pipeline.run(
      userCommand(userUuid, context, (user) => changeRole({ role: account.role, actor: null }, user)),
    );
    await this.pipeline.run(
      userCommand(userUuid, context, (user) => changeStatus({ status: 'ACTIVE', actor: null }, user)),
    );
    const currentHash = await this.credentials.findHash(userUuid);
    if (!currentHash || !(await this.hasher.verify(currentHash, account.password))) {
      await this.passwords.set(userUuid, account.password, null, context);
    }
    return { userUuid, created: false };
  }

  private async create(account: EnsuredAccount): Promise<EnsureOutcome> {
    const { userUuid } = await this.accounts.create(
      {
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        password: account.password,
        language: DEFAULT_LANGUAGE,
      },
      { kind: 'staff-created', role: account.role },
      systemContext(),
    );
    return { userUuid, created: true };
  }
}
