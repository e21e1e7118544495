import type { EventMetadata, PaymentRecordedData } from '@kupa/proto';
import { randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { chainHash, LEDGER_EVENT_SCHEMAS, paymentDecider, walletDecider, type WalletState } from '@kupa/api/testing';

/**
 * Seeds a large, valid ledger quickly: manual deposits and withdrawals decided by the real wallet and payment
 * deciders (so every transaction balances and no balance goes negative), hashed into per-stream chains exactly as
 * the store hashes them, and inserted in bulk. Only the events are written; the read models are then built by
 * `kupa projections rebuild`, the same code that keeps them inline. `kupa ledger verify` passes over the result.
 */
export interface SeedUser {
  userUuid: string;
  email: string;
}

export interface SeedOptions {
  payments: number;
  users: SeedUser[];
  /** This user receives `heavyWalletEvents` of the payments (the long-stream decide benchmark). */
  heavyUser: SeedUser;
  heavyWalletEvents: number;
  actor: EventMetadata['actor'];
  startAt: Date;
}

/** Events per INSERT statement: large enough to amortise round trips, small enough for modest parameter arrays. */
const INSERT_BATCH_EVENTS = 4000;
const SPACING_MS = 30_000;
/** Event types whose data changed since their first version are written at their current one, as the store does. */
const schemaVersionOf = (type: string): number =>
  LEDGER_EVENT_SCHEMAS[type as keyof typeof LEDGER_EVENT_SCHEMAS]?.schemaVersion ?? 1;
const COMMENTS = [
  'Bank transfer',
  'Cash at the office',
  'העברה בנקאית',
  'Refund of a fee',
  'Wire from Leumi',
  'Payout to card',
];

interface StreamHead {
  version: number;
  lastHash: string | null;
}

interface PendingRow {
  streamId: string;
  streamVersion: number;
  type: string;
  dataJson: string;
  metadataJson: string;
  hash: string;
}

export async function seedLedger(
  client: Client,
  options: SeedOptions,
): Promise<{ events: number; firstPaymentId: number }> {
  const [{ start }] = (await client.query<{ start: string }>("SELECT nextval('payment_id_seq')::text AS start")).rows;
  const firstPaymentId = Number(start) + 1;
  await client.query("SELECT setval('payment_id_seq', $1::bigint)", [firstPaymentId + options.payments]);

  const heads = new Map<string, StreamHead>();
  const states = new Map<string, WalletState>();
  let pending: PendingRow[] = [];
  let events = 0;

  const push = (streamId: string, type: string, data: unknown, metadata: EventMetadata): void => {
    const head = heads.get(streamId) ?? { version: 0, lastHash: null };
    const storedMetadata = { ...metadata, schemaVersion: schemaVersionOf(type) };
    const dataJson = JSON.stringify(data);
    const version = head.version + 1;
    const hash = chainHash(head.lastHash, {
      streamId,
      streamVersion: version,
      type,
      data: JSON.parse(dataJson),
      metadata: storedMetadata,
    });
    heads.set(streamId, { version, lastHash: hash });
    pending.push({
      streamId,
      streamVersion: version,
      type,
      dataJson,
      metadataJson: JSON.stringify(storedMetadata),
      hash,
    });
    events += 1;
  };

  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    await client.query(
      `INSERT INTO events (stream_id, stream_version, type, data, metadata, hash)
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::jsonb[], $5::jsonb[], $6::text[])`,
      [
        pending.map((row) => row.streamId),
        pending.map((row) => row.streamVersion),
        pending.map((row) => row.type),
        pending.map((row) => row.dataJson),
        pending.map((row) => row.metadataJson),
        pending.map((row) => row.hash),
      ],
    );
    pending = [];
  };

  for (let index = 0; index < options.payments; index += 1) {
    const paymentId = firstPaymentId + index;
    const user = index < options.heavyWalletEvents ? options.heavyUser : options.users[index % options.users.length];
    const walletId = `wallet-${user.userUuid}`;
    const state = states.get(walletId) ?? walletDecider.initialState();
    const amountMinor = 100 + ((index * 7919) % 49_900);
    // Roughly one payment in five is a withdrawal, when the balance allows it; the rest are deposits.
    const withdraw = index % 5 === 4 && state.balanceMinor >= amountMinor;
    const occurredAt = new Date(options.startAt.getTime() + index * SPACING_MS).toISOString();
    const metadata: EventMetadata = {
      actor: options.actor,
      correlationId: randomUUID(),
      causationId: null,
      occurredAt,
      ip: null,
    };
    const comment = `${COMMENTS[index % COMMENTS.length]} #${index}`;
    const walletEvents = walletDecider.decide(
      {
        type: withdraw ? 'RecordWithdrawal' : 'RecordManualDeposit',
        userUuid: user.userUuid,
        paymentId,
        amountMinor,
        correction: false,
        reason: comment,
        transactionId: randomUUID(),
      },
      state,
    );
    const recorded: PaymentRecordedData = {
      paymentId,
      userUuid: user.userUuid,
      userEmail: user.email,
      type: withdraw ? 'WITHDRAW' : 'DEPOSIT',
      method: 'MANUAL_TRANSFER',
      aggregator: 'MANUAL',
      status: 'SUCCESS',
      amountMinor,
      currency: 'USD',
      comment,
      publicNote: null,
      counterAccount: 'world:manual',
      correction: false,
      transferId: null,
      senderProfileId: null,
      recipientProfileId: null,
      discountPercent: 0,
      createdAt: occurredAt,
    };
    const paymentEvents = paymentDecider.decide({ type: 'RecordPayment', payment: recorded }, null);
    // The store appends a command's streams in byte-wise order: payment-… before wallet-….
    for (const event of paymentEvents) push(`payment-${paymentId}`, event.type, event.data, metadata);
    let next = state;
    for (const event of walletEvents) {
      push(walletId, event.type, event.data, metadata);
      next = walletDecider.evolve(next, event);
    }
    states.set(walletId, next);
    if (pending.length >= INSERT_BATCH_EVENTS) await flush();
  }
  await flush();
  const streamIds = [...heads.keys()];
  await client.query(
    `INSERT INTO streams (stream_id, version, last_hash) SELECT * FROM unnest($1::text[], $2::int[], $3::text[])
     ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version, last_hash = EXCLUDED.last_hash`,
    [streamIds, streamIds.map((id) => heads.get(id)?.version), streamIds.map((id) => heads.get(id)?.lastHash)],
  );
  return { events, firstPaymentId };
}
