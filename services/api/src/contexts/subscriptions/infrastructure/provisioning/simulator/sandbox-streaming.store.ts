import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { DataSource, EntityManager } from 'typeorm';
import { uniqueViolationConstraint } from '../../../../../platform/database/unique-violation';
import type { StreamingAccount } from '../provisioning-provider.port';
import type { SandboxFaultMode, SandboxFaultOperation } from './sandbox-streaming.dto';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  length: number,
  options: object,
) => Promise<Buffer>;

/** Light on purpose: the simulator stands in for someone else's service, and tests create many accounts. */
const SCRYPT_OPTIONS = { N: 1024, r: 8, p: 1 };

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT_OPTIONS);
  return `${salt.toString('hex')}:${hash.toString('hex')}`;
}

async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [salt, hash] = stored.split(':');
  const candidate = await scryptAsync(password, Buffer.from(salt, 'hex'), 32, SCRYPT_OPTIONS);
  return timingSafeEqual(candidate, Buffer.from(hash, 'hex'));
}

interface AccountRow {
  login: string;
  password_hash: string;
  expires_at: Date;
  status: 'ACTIVE' | 'DISABLED';
}

/** node-postgres answers UPDATE … RETURNING through TypeORM as `[rows, count]`, INSERT … RETURNING as the rows. */
function updatedRows<Row>(result: unknown): Row[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Row[];
}

function toAccount(row: AccountRow): StreamingAccount {
  return { login: row.login, expiresAt: new Date(row.expires_at).toISOString(), status: row.status };
}

export type CreateResult = { result: 'created' | 'unchanged'; account: StreamingAccount } | { result: 'taken' };
export type RenameResult = { result: 'renamed'; account: StreamingAccount } | { result: 'missing' | 'taken' };

/**
 * The simulated streaming service's accounts (`sandbox_streaming_accounts`) and queued faults
 * (`sandbox_streaming_faults`), with the semantics docs/provisioning-api.md promises: repeated calls with the same
 * arguments succeed; a disabled account gives its login up to whoever creates an account under it next.
 */
@Injectable()
export class SandboxStreamingStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(login: string): Promise<StreamingAccount | null> {
    const rows: AccountRow[] = await this.dataSource.query(
      'SELECT login, password_hash, expires_at, status FROM sandbox_streaming_accounts WHERE login = $1',
      [login],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async create(login: string, password: string, expiresAt: Date, now: Date): Promise<CreateResult> {
    const hash = await hashPassword(password);
    return this.dataSource.transaction(async (manager) => {
      const inserted: AccountRow[] = await manager.query(
        `INSERT INTO sandbox_streaming_accounts (login, password_hash, expires_at, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'ACTIVE', $4, $4) ON CONFLICT (login) DO NOTHING
         RETURNING login, password_hash, expires_at, status`,
        [login, hash, expiresAt, now],
      );
      if (inserted[0]) return { result: 'created', account: toAccount(inserted[0]) };
      const existing = await this.lock(manager, login);
      if (!existing) return { result: 'taken' };
      if (existing.status === 'DISABLED') {
        const replaced = await this.update(manager, login, { password_hash: hash, expires_at: expiresAt }, now);
        return { result: 'created', account: replaced };
      }
      const same =
        new Date(existing.expires_at).getTime() === expiresAt.getTime() &&
        (await passwordMatches(password, existing.password_hash));
      return same ? { result: 'unchanged', account: toAccount(existing) } : { result: 'taken' };
    });
  }

  async setExpiry(login: string, expiresAt: Date, now: Date): Promise<StreamingAccount | null> {
    return this.dataSource.transaction(async (manager) =>
      (await this.lock(manager, login)) ? this.update(manager, login, { expires_at: expiresAt }, now) : null,
    );
  }

  async setPassword(login: string, password: string, now: Date): Promise<StreamingAccount | null> {
    const hash = await hashPassword(password);
    return this.dataSource.transaction(async (manager) =>
      (await this.lock(manager, login)) ? this.update(manager, login, { password_hash: hash }, now) : null,
    );
  }

  async disable(login: string, now: Date): Promise<StreamingAccount | null> {
    return this.dataSource.transaction(async (manager) =>
      (await this.lock(manager, login)) ? this.update(manager, login, { status: 'DISABLED' }, now) : null,
    );
  }

  async rename(login: string, newLogin: string, now: Date): Promise<RenameResult> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const existing = await this.lock(manager, login);
        if (!existing) return { result: 'missing' };
        if (newLogin === login) return { result: 'renamed', account: toAccount(existing) };
        const holder = await this.lock(manager, newLogin);
        if (holder?.status === 'ACTIVE') return { result: 'taken' };
        if (holder) await manager.query('DELETE FROM sandbox_streaming_accounts WHERE login = $1', [newLogin]);
        const rows = updatedRows<AccountRow>(
          await manager.query(
            `UPDATE sandbox_streaming_accounts SET login = $2, updated_at = $3 WHERE login = $1
             RETURNING login, password_hash, expires_at, status`,
            [login, newLogin, now],
          ),
        );
        return { result: 'renamed', account: toAccount(rows[0]) };
      });
    } catch (error) {
      // Two renames onto one free login at once: the second finds it taken.
      if (uniqueViolationConstraint(error) !== null) return { result: 'taken' };
      throw error;
    }
  }

  /** Queues a fault behind the ones already waiting. */
  async queueFault(operation: SandboxFaultOperation, mode: SandboxFaultMode, times: number): Promise<void> {
    await this.dataSource.query(
      'INSERT INTO sandbox_streaming_faults (operation, mode, remaining) VALUES ($1, $2, $3)',
      [operation, mode, times],
    );
  }

  async faults(): Promise<{ operation: SandboxFaultOperation; mode: SandboxFaultMode; remaining: number }[]> {
    return this.dataSource.query(
      'SELECT operation, mode, remaining FROM sandbox_streaming_faults WHERE remaining > 0 ORDER BY id',
    );
  }

  async clearFaults(): Promise<void> {
    await this.dataSource.query('DELETE FROM sandbox_streaming_faults');
  }

  /** Takes one firing of the oldest fault queued for the operation, if any; replicas share the queue. */
  async takeFault(operation: SandboxFaultOperation): Promise<SandboxFaultMode | null> {
    const rows = updatedRows<{ mode: SandboxFaultMode }>(
      await this.dataSource.query(
        `UPDATE sandbox_streaming_faults SET remaining = remaining - 1
        WHERE id = (SELECT id FROM sandbox_streaming_faults WHERE operation = $1 AND remaining > 0
                     ORDER BY id LIMIT 1 FOR UPDATE)
        RETURNING mode`,
        [operation],
      ),
    );
    return rows[0]?.mode ?? null;
  }

  private async lock(manager: EntityManager, login: string): Promise<AccountRow | null> {
    const rows: AccountRow[] = await manager.query(
      'SELECT login, password_hash, expires_at, status FROM sandbox_streaming_accounts WHERE login = $1 FOR UPDATE',
      [login],
    );
    return rows[0] ?? null;
  }

  private async update(
    manager: EntityManager,
    login: string,
    change: Partial<Pick<AccountRow, 'password_hash' | 'expires_at' | 'status'>>,
    now: Date,
  ): Promise<StreamingAccount> {
    const rows = updatedRows<AccountRow>(
      await manager.query(
        `UPDATE sandbox_streaming_accounts
          SET password_hash = COALESCE($2::text, password_hash),
              expires_at = COALESCE($3::timestamptz, expires_at),
              status = CASE WHEN $4::text IS NOT NULL THEN $4::text WHEN $3::timestamptz IS NOT NULL THEN 'ACTIVE' ELSE status END,
              updated_at = $5
        WHERE login = $1
        RETURNING login, password_hash, expires_at, status`,
        [login, change.password_hash ?? null, change.expires_at ?? null, change.status ?? null, now],
      ),
    );
    return toAccount(rows[0]);
  }
}
