import { Inject, Injectable } from '@nestjs/common';
import { LIMITS } from '@kupa/proto';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { SecretBox } from '../../../../platform/crypto';
import { recoveryCodeCheck, type StepUpCheck, totpCheck } from '../../domain/step-up.rules';
import { firstRows } from '../persistence/query-results';
import {
  hashRecoveryCode,
  looksLikeRecoveryCode,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  normalizeCode,
  recoveryCodeMatches,
} from './two-factor-codes';

/** What the authenticator secrets' key is derived for; the user's uuid is each secret's associated data. */
const TWO_FACTOR_SECRETS_PURPOSE = 'two-factor secrets';

export type TwoFactorStatus = 'PENDING' | 'ACTIVE';

export interface TwoFactorRecord {
  status: TwoFactorStatus;
  secret: string;
  lastUsedStep: number | null;
}

/**
 * The two-factor tables beside the user stream: the encrypted authenticator secret (PENDING until the first code
 * confirms it, then ACTIVE) and the recovery codes' salted hashes. Like passwords, none of it ever enters an event;
 * the events only say that two-factor sign-in was turned on or off. Writes that go with an event take the command's
 * transaction; code checks claim their time-step or recovery code with one conditional UPDATE, so two concurrent
 * sign-ins with the same code cannot both pass.
 */
@Injectable()
export class TwoFactorStore {
  private readonly box: SecretBox;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // The purpose names the key derived from TWO_FACTOR_KEY; it must not change, or stored secrets no longer open.
    this.box = new SecretBox(config.twoFactorKey, TWO_FACTOR_SECRETS_PURPOSE);
  }

  async find(userUuid: string, manager: EntityManager = this.dataSource.manager): Promise<TwoFactorRecord | null> {
    const rows: Array<{ status: TwoFactorStatus; secret_ciphertext: string; last_used_step: string | null }> =
      await manager.query(
        `SELECT status, secret_ciphertext, last_used_step FROM two_factor_secrets WHERE user_uuid = $1`,
        [userUuid],
      );
    const row = rows[0];
    if (!row) return null;
    return {
      status: row.status,
      secret: this.box.open(row.secret_ciphertext, userUuid),
      lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
    };
  }

  /**
   * A fresh PENDING secret, replacing an earlier unconfirmed one (the user may have lost the first QR). Null when the
   * account's two-factor sign-in is already ACTIVE: that one is only replaced by turning it off first.
   */
  async startEnrolment(userUuid: string, at: Date): Promise<string | null> {
    const secret = newTotpSecret();
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO two_factor_secrets (user_uuid, secret_ciphertext, status, last_used_step, created_at)
       VALUES ($1, $2, 'PENDING', NULL, $3)
       ON CONFLICT (user_uuid) DO UPDATE SET secret_ciphertext = EXCLUDED.secret_ciphertext,
         last_used_step = NULL, created_at = EXCLUDED.created_at
         WHERE two_factor_secrets.status = 'PENDING'
       RETURNING user_uuid`,
      [userUuid, this.box.seal(secret, userUuid), at],
    );
    return firstRows(rows).length === 1 ? secret : null;
  }

  /**
   * Turns the pending secret the first code was checked against into the active one and stores fresh recovery codes;
   * answers those codes, the only time they exist in clear. False when the pending secret changed in between.
   */
  async activate(
    manager: EntityManager,
    userUuid: string,
    checked: { secret: string; step: number },
    at: Date,
  ): Promise<string[] | null> {
    const current = await this.find(userUuid, manager);
    if (!current || current.status !== 'PENDING' || current.secret !== checked.secret) return null;
    await manager.query(
      `UPDATE two_factor_secrets SET status = 'ACTIVE', last_used_step = $2, activated_at = $3 WHERE user_uuid = $1`,
      [userUuid, checked.step, at],
    );
    await manager.query(`DELETE FROM two_factor_recovery_codes WHERE user_uuid = $1`, [userUuid]);
    const codes = Array.from({ length: LIMITS.recoveryCodeCount }, () => newRecoveryCode());
    const hashed = codes.map((code) => hashRecoveryCode(code));
    await manager.query(
      `INSERT INTO two_factor_recovery_codes (user_uuid, salt, code_hash)
       SELECT $1, salt, code_hash FROM unnest($2::text[], $3::text[]) AS codes(salt, code_hash)`,
      [userUuid, hashed.map((code) => code.salt), hashed.map((code) => code.hash)],
    );
    return codes;
  }

  async remove(manager: EntityManager, userUuid: string): Promise<void> {
    await manager.query(`DELETE FROM two_factor_recovery_codes WHERE user_uuid = $1`, [userUuid]);
    await manager.query(`DELETE FROM two_factor_secrets WHERE user_uuid = $1`, [userUuid]);
  }

  /**
   * Checks a code of an ACTIVE two-factor sign-in and uses it up: a TOTP code claims its time-step (later codes of
   * the same or an earlier step are refused), a recovery code is marked used. False for anything else.
   */
  async consumeCode(userUuid: string, code: string, at: Date): Promise<boolean> {
    const record = await this.find(userUuid);
    if (!record || record.status !== 'ACTIVE') return false;
    const normalized = normalizeCode(code);
    const step = matchTotp(record.secret, normalized, at, record.lastUsedStep);
    if (step !== null) {
      const claimed: unknown[] = await this.dataSource.query(
        `UPDATE two_factor_secrets SET last_used_step = $2
         WHERE user_uuid = $1 AND status = 'ACTIVE' AND (last_used_step IS NULL OR last_used_step < $2)
         RETURNING user_uuid`,
        [userUuid, step],
      );
      return firstRows(claimed).length === 1;
    }
    if (!looksLikeRecoveryCode(normalized)) return false;
    return this.consumeRecoveryCode(userUuid, normalized, at);
  }

  /**
   * A step-up code's verdict (docs/adr/0098-client-two-factor-and-step-up.md), spending it when it is fresh: unlike
   * sign-in, a step-up tells a replayed code (its time-step or an earlier one already accepted, a spent recovery code)
   * from a wrong one, because the owner holding the session may simply have typed the code they just used. 'NONE'
   * when the account has no active two-factor sign-in. Two concurrent calls with one code: one claims it, the other
   * sees it reused.
   */
  async checkStepUpCode(userUuid: string, code: string, at: Date): Promise<StepUpCheck> {
    const record = await this.find(userUuid);
    if (!record || record.status !== 'ACTIVE') return 'NONE';
    const normalized = normalizeCode(code);
    const step = matchTotp(record.secret, normalized, at, null);
    if (step !== null) {
      const check = totpCheck(step, record.lastUsedStep);
      if (check !== 'FRESH') return check;
      const claimed: unknown[] = await this.dataSource.query(
        `UPDATE two_factor_secrets SET last_used_step = $2
         WHERE user_uuid = $1 AND status = 'ACTIVE' AND (last_used_step IS NULL OR last_used_step < $2)
         RETURNING user_uuid`,
        [userUuid, step],
      );
      return firstRows(claimed).length === 1 ? 'FRESH' : 'REUSED';
    }
    if (!looksLikeRecoveryCode(normalized)) return 'WRONG';
    const rows: Array<{ id: string; salt: string; code_hash: string; used_at: Date | null }> =
      await this.dataSource.query(
        `SELECT id, salt, code_hash, used_at FROM two_factor_recovery_codes WHERE user_uuid = $1`,
        [userUuid],
      );
    const match = rows.find((row) => recoveryCodeMatches(normalized, { salt: row.salt, hash: row.code_hash }));
    const check = recoveryCodeCheck(match ? { usedAt: match.used_at } : null);
    if (check !== 'FRESH' || !match) return check;
    const used: unknown[] = await this.dataSource.query(
      `UPDATE two_factor_recovery_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id`,
      [match.id, at],
    );
    return firstRows(used).length === 1 ? 'FRESH' : 'REUSED';
  }

  private async consumeRecoveryCode(userUuid: string, code: string, at: Date): Promise<boolean> {
    const rows: Array<{ id: string; salt: string; code_hash: string }> = await this.dataSource.query(
      `SELECT id, salt, code_hash FROM two_factor_recovery_codes WHERE user_uuid = $1 AND used_at IS NULL`,
      [userUuid],
    );
    const match = rows.find((row) => recoveryCodeMatches(code, { salt: row.salt, hash: row.code_hash }));
    if (!match) return false;
    const used: unknown[] = await this.dataSource.query(
      `UPDATE two_factor_recovery_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id`,
      [match.id, at],
    );
    return firstRows(used).length === 1;
  }
}
