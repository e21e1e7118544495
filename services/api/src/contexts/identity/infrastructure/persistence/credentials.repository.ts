import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Reads and writes argon2id password hashes in `credentials`; writes happen inside the same transaction as the event
 * that explains them. Kept out of events on purpose: events are immutable and replayed everywhere, while a hash must
 * be replaceable and readable by nothing but sign-in.
 */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async save(manager: EntityManager, userUuid: string, passwordHash: string, at: Date): Promise<void> {
    await manager.query(
      `INSERT INTO credentials (user_uuid, password_hash, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (user_uuid) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = EXCLUDED.updated_at`,
      [userUuid, passwordHash, at],
    );
  }

  async findHash(userUuid: string): Promise<string | null> {
    const rows: Array<{ password_hash: string }> = await this.dataSource.query(
      `SELECT password_hash FROM credentials WHERE user_uuid = $1`,
      [userUuid],
    );
    return rows[0]?.password_hash ?? null;
  }
}
