import { Inject, Injectable } from '@nestjs/common';
import { formatVoucherCode, VOUCHER_CODE_ALPHABET, VOUCHER_CODE_LENGTH } from '@kupa/proto';
import { createHash, randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { SecretBox } from '../../../platform/crypto';

/** The purpose that keeps the voucher box's key apart from the other boxes on the same root key. */
const VOUCHER_CODES_PURPOSE = 'voucher-codes';

/** What a redemption looks a code up by: a code is 80 random bits, so a plain SHA-256 cannot be reversed by guessing. */
export function voucherCodeHash(normalizedCode: string): string {
  return createHash('sha256').update(normalizedCode, 'utf8').digest('hex');
}

/**
 * The codes of a batch beside its events (docs/adr/0089-prepaid-vouchers.md): a hash to find a typed code, and the
 * code sealed with AES-256-GCM under a key derived from the server's root key, so that staff can export a batch again
 * while a copy of the database alone shows no code that redeems.
 */
@Injectable()
export class VoucherCodes {
  private readonly box: SecretBox;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.twoFactorKey, VOUCHER_CODES_PURPOSE);
  }

  /** `count` fresh codes, normalized (16 characters of Crockford's base32 each), from the system's CSPRNG. */
  newCodes(count: number): string[] {
    return Array.from({ length: count }, () =>
      Array.from(
        { length: VOUCHER_CODE_LENGTH },
        () => VOUCHER_CODE_ALPHABET[randomInt(VOUCHER_CODE_ALPHABET.length)],
      ).join(''),
    );
  }

  /** Stores a batch's codes in the transaction of its generation; a code colliding with a stored one fails the append. */
  async store(manager: EntityManager, batchId: string, codes: readonly string[]): Promise<void> {
    await manager.query(
      `INSERT INTO voucher_codes (code_hash, batch_id, code_index, sealed_code)
       SELECT hash, $1, index, sealed FROM unnest($2::text[], $3::int[], $4::text[]) AS c(hash, index, sealed)`,
      [
        batchId,
        codes.map(voucherCodeHash),
        codes.map((_, index) => index),
        codes.map((code, index) => this.box.seal(code, `${batchId}:${index}`)),
      ],
    );
  }

  /** The batch and index of a typed (normalized) code, or null when no batch holds it. */
  async find(manager: EntityManager, normalizedCode: string): Promise<{ batchId: string; codeIndex: number } | null> {
    const rows: Array<{ batch_id: string; code_index: number }> = await manager.query(
      'SELECT batch_id, code_index FROM voucher_codes WHERE code_hash = $1',
      [voucherCodeHash(normalizedCode)],
    );
    return rows.length === 0 ? null : { batchId: rows[0].batch_id, codeIndex: rows[0].code_index };
  }

  /** A batch's codes in order, formatted for people, opened with the server's key. */
  async codesOf(manager: EntityManager, batchId: string): Promise<string[]> {
    const rows: Array<{ code_index: number; sealed_code: string }> = await manager.query(
      'SELECT code_index, sealed_code FROM voucher_codes WHERE batch_id = $1 ORDER BY code_index',
      [batchId],
    );
    return rows.map((row) => formatVoucherCode(this.box.open(row.sealed_code, `${batchId}:${row.code_index}`)));
  }
}
