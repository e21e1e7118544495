import { Injectable } from '@nestjs/common';
import { ActorLookup, type ActorRecord } from '../../../platform/auth';
import { UserReader } from '../projections/users/user-reader';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The guard's view of a token's subject, read fresh from `users` on every request (a block takes effect at once). */
@Injectable()
export class UsersActorLookup extends ActorLookup {
  constructor(private readonly reader: UserReader) {
    super();
  }

  async findByUuid(userUuid: string): Promise<ActorRecord | null> {
    if (!UUID.test(userUuid)) return null;
    const view = await this.reader.findByUuid(userUuid);
    if (!view) return null;
    return {
      userUuid: view.uuid,
      email: view.email,
      role: view.role,
      status: view.status,
      fullName: `${view.firstName} ${view.lastName}`.trim(),
    };
  }
}
