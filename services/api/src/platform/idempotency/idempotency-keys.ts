import { Injectable } from '@nestjs/common';
import { canonicalJson, LIMITS } from '@kupa/proto';
import { createHash } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, ValidationFailedError } from '../http';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = LIMITS.textMaxLength;
/** Money-moving POSTs answer 201; only successes are remembered against a key. */
export const CREATED_STATUS = 201;

export interface IdempotentRequest {
  actorUuid: string;
  key: string;
  requestHash: string;
}

/** The first answer to a key, thrown out of the command's transaction so that a repeat writes nothing at all. */
export class IdempotentReplay extends Error {
  constructor(readonly response: unknown) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

/** The header's key, or null when absent; an empty or overlong key is bad input. */
export function parseIdempotencyKey(header: unknown): string | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header.join(',') : String(header);
  if (key.trim() === '')
    throw new ValidationFailedError([{ field: 'Idempotency-Key', error: 'error.validation.blank' }]);
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ValidationFailedError([
      { field: 'Idempotency-Key', error: 'error.validation.max.length', params: { max: IDEMPOTENCY_KEY_MAX_LENGTH } },
    ]);
  }
  return key;
}

/**
 * `Idempotency-Key` on money-moving POSTs (ADR 0006). The key row is written once, with its answer, inside the
 * command's transaction after it decided (docs/adr/0129): a concurrent repeat's insert of the same key waits for the
 * first's transaction to end, then finds the key taken and answers its stored response, rolling back its own work; if
 * the first fails and rolls back, the repeat goes ahead on its own. A repeat whose own decision refused (the first
 * spent the balance it needed) waits for the key the same way before refusing. Failures are never stored.
 */
@Injectable()
export class IdempotencyKeys {
  constructor(private readonly dataSource: DataSource) {}

  request(actorUuid: string, key: string | null, route: string, body: unknown): IdempotentRequest | null {
    if (key === null) return null;
    const requestHash = createHash('sha256').update(canonicalJson({ route, body })).digest('hex');
    return { actorUuid, key, requestHash };
  }

  /** A committed first answer, checked before any work so that a sequential repeat costs one read. */
  async replayIfKnown<Response>(request: IdempotentRequest | null): Promise<Response | null> {
    if (request === null) return null;
    return (await this.storedAnswer(this.dataSource.manager, request)) as Response | null;
  }

  /**
   * Stores the answer under the key inside the command's transaction, or, when another request holds the key, waits
   * for it to commit and throws its stored answer (or the reuse refusal) instead.
   */
  async store(manager: EntityManager, request: IdempotentRequest | null, response: unknown, now: Date): Promise<void> {
    if (request === null) return;
    await this.insertOrReplay(manager, request, CREATED_STATUS, JSON.stringify(response), now);
  }

  /**
   * The command refused: before its refusal is answered, a request that holds the key is waited for, and its stored
   * answer (or the reuse refusal) thrown instead. The row this may insert goes with the refused transaction.
   */
  async awaitHolder(manager: EntityManager, request: IdempotentRequest | null, now: Date): Promise<void> {
    if (request === null) return;
    await this.insertOrReplay(manager, request, null, null, now);
  }

  private async insertOrReplay(
    manager: EntityManager,
    request: IdempotentRequest,
    statusCode: number | null,
    responseJson: string | null,
    now: Date,
  ): Promise<void> {
    // ON CONFLICT waits for a transaction that inserted the key and has not ended, and then sees its row.
    const inserted: unknown[] = await manager.query(
      `INSERT INTO idempotency_keys (actor_uuid, key, request_hash, status_code, response, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1`,
      [request.actorUuid, request.key, request.requestHash, statusCode, responseJson, now],
    );
    if (inserted.length === 1) return;
    const stored = await this.storedAnswer(manager, request);
    if (stored === null) throw new Error(`Idempotency key of ${request.actorUuid} is held without an answer`);
    throw new IdempotentReplay(stored);
  }

  /**
   * A batch's keys in one statement (docs/adr/0130-group-commit.md): each with its answer, or with none for a refused
   * command (whose row the batch deletes again). `ON CONFLICT` waits for a transaction holding one; answers the
   * indexes of the claims inserted.
   */
  async claimAll(
    manager: EntityManager,
    claims: readonly { request: IdempotentRequest; response: unknown; refused: boolean; at: Date }[],
  ): Promise<Set<number>> {
    const rows: { actor_uuid: string; key: string }[] = await manager.query(
      `INSERT INTO idempotency_keys (actor_uuid, key, request_hash, status_code, response, created_at)
       SELECT actor_uuid, key, request_hash, status_code, response, created_at
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::jsonb[], $6::timestamptz[]) WITH ORDINALITY
           AS k(actor_uuid, key, request_hash, status_code, response, created_at, ordinal)
        ORDER BY ordinal
       ON CONFLICT DO NOTHING RETURNING actor_uuid::text, key`,
      [
        claims.map((claim) => claim.request.actorUuid),
        claims.map((claim) => claim.request.key),
        claims.map((claim) => claim.request.requestHash),
        claims.map((claim) => (claim.refused ? null : CREATED_STATUS)),
        claims.map((claim) => (claim.refused ? null : JSON.stringify(claim.response))),
        claims.map((claim) => claim.at),
      ],
    );
    // A batch never holds one actor's key twice (its formation holds the second back).
    const inserted = new Set(rows.map((row) => `${row.actor_uuid.toLowerCase()} ${row.key}`));
    const won = new Set<number>();
    for (const [index, claim] of claims.entries()) {
      if (inserted.has(`${claim.request.actorUuid.toLowerCase()} ${claim.request.key}`)) won.add(index);
    }
    return won;
  }

  /** The key is held by a committed request: throws its answer as a replay, or the reuse refusal. */
  async replay(manager: EntityManager, request: IdempotentRequest): Promise<never> {
    const stored = await this.storedAnswer(manager, request);
    if (stored === null) throw new Error(`Idempotency key of ${request.actorUuid} is held without an answer`);
    throw new IdempotentReplay(stored);
  }

  /** Deletes the keys a batch inserted for its refused commands: failures are never stored. */
  async forgetAll(manager: EntityManager, requests: readonly IdempotentRequest[]): Promise<void> {
    await manager.query(
      `DELETE FROM idempotency_keys USING unnest($1::uuid[], $2::text[]) AS k(actor_uuid, key)
        WHERE idempotency_keys.actor_uuid = k.actor_uuid AND idempotency_keys.key = k.key`,
      [requests.map((request) => request.actorUuid), requests.map((request) => request.key)],
    );
  }

  private async storedAnswer(manager: EntityManager, request: IdempotentRequest): Promise<unknown> {
    const rows: Array<{ request_hash: string; response: unknown }> = await manager.query(
      'SELECT request_hash, response FROM idempotency_keys WHERE actor_uuid = $1 AND key = $2',
      [request.actorUuid, request.key],
    );
    const row = rows[0];
    if (!row || row.response === null) return null;
    if (row.request_hash !== request.requestHash) throw new ApiError('error.idempotency.key.reused');
    return row.response;
  }
}
