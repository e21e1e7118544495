import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../../platform/auth';
import { CommandPipeline } from '../../../platform/commands';
import { type CommandActor, setPasswordByStaff } from '../domain/user.decider';
import { CredentialsRepository } from '../infrastructure/persistence/credentials.repository';
import { PasswordHasher } from '../infrastructure/passwords/password-hasher';
import { RefreshTokens } from '../infrastructure/sessions/refresh-tokens';
import { userCommand } from '../infrastructure/streams/user-streams';

/**
 * Sets a user's password on someone else's authority: staff (`POST /users/{uuid}/password`) or the system
 * (`actor` null: the startup bootstrap, `kupa users create-admin`). The event, the new hash and the end of the
 * account's sessions go in one transaction.
 */
@Injectable()
export class StaffPasswords {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly hasher: PasswordHasher,
    private readonly credentials: CredentialsRepository,
    private readonly refreshTokens: RefreshTokens,
  ) {}

  async set(userUuid: string, password: string, actor: CommandActor | null, context: RequestContext): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) => setPasswordByStaff({ actor, at }, user),
        async (tx, _events, { at }) => {
          await this.credentials.save(tx.manager, userUuid, passwordHash, at);
          // A password is set by others when an account is compromised or locked out: whoever held a session under
          // the old one is signed out.
          await this.refreshTokens.endSessions(tx.manager, userUuid, at, null, 'staff');
        },
      ),
    );
  }
}
