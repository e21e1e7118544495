import { Injectable } from '@nestjs/common';
import { LIMITS, type UserRole, type UserStatus } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { ActorLookup, type ActorRecord } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { ActorCache } from './actor-cache';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ActorRow {
  uuid: string;
  email: string;
  role: UserRole;
  status: UserStatus;
  first_name: string;
  last_name: string;
  session_version: number;
  ended_session_ids: string[];
  staff_end_codes: string[];
}

/**
 * The guard's view of a token's subject: status and role from `users` (a block takes effect at once), the session
 * version from `credentials` (a password change ends older tokens), the sessions ended lately from `refresh_tokens`
 * (a logout ends that session's access tokens) with the reason staff gave for ending one, in one query, kept by the `ActorCache` for as
 * long as no change to them is heard.
 */
@Injectable()
export class UsersActorLookup extends ActorLookup {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cache: ActorCache,
    private readonly clock: Clock,
  ) {
    super();
  }

  async findByUuid(userUuid: string): Promise<ActorRecord | null> {
    if (!UUID.test(userUuid)) return null;
    const nowMs = performance.now();
    const cached = this.cache.find(userUuid, nowMs);
    if (cached) return cached;
    const generation = this.cache.generation;
    const record = await this.read(userUuid);
    if (record) this.cache.remember(record, generation, nowMs);
    return record;
  }

  private async read(userUuid: string): Promise<ActorRecord | null> {
    // Sessions ended longer ago than an access token lives have no access token left to refuse.
    const endedSince = new Date(this.clock.now().getTime() - LIMITS.accessTokenTtlSeconds * 1000);
    const rows: ActorRow[] = await this.dataSource.query(
      `SELECT u.uuid, u.email, u.role, u.status, u.first_name, u.last_name,
              coalesce(c.session_version, 0) AS session_version,
              ARRAY(SELECT DISTINCT t.family_id::text FROM refresh_tokens t
                    WHERE t.user_uuid = u.uuid AND t.revoked_at > $2) AS ended_session_ids,
              ARRAY(SELECT s.family_id::text || ' ' || s.end_code FROM user_sessions s
                    WHERE s.user_uuid = u.uuid AND s.ended_at > $2 AND s.end_code IS NOT NULL) AS staff_end_codes
       FROM users u LEFT JOIN credentials c ON c.user_uuid = u.uuid
       WHERE u.uuid = $1`,
      [userUuid, endedSince],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      userUuid: row.uuid,
      email: row.email,
      role: row.role,
      status: row.status,
      fullName: `${row.first_name} ${row.last_name}`.trim(),
      sessionVersion: row.session_version,
      endedSessionIds: row.ended_session_ids,
      sessionEndCodes: Object.fromEntries(row.staff_end_codes.map((pair) => pair.split(' ', 2))),
    };
  }
}
