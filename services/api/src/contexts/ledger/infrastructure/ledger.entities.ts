import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The payments read model: one row per payment, every column a search filter or sort needs. */
@Entity({ name: 'payments' })
export class PaymentRow {
  /** A string because bigint exceeds JS numbers' safe range in general; payment ids stay far below it. */
  @PrimaryColumn({ name: 'payment_id', type: 'bigint' })
  paymentId: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid: string;

  @Column({ name: 'user_email', type: 'text' })
  userEmail: string;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor: string;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text' })
  status: string;

  @Column({ type: 'text' })
  method: string;

  @Column({ type: 'text' })
  type: string;

  @Column({ type: 'text' })
  aggregator: string;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @Column({ name: 'counter_account', type: 'text' })
  counterAccount: string;

  @Column({ type: 'boolean' })
  correction: boolean;

  @Column({ name: 'sender_profile_id', type: 'char', length: 8, nullable: true })
  senderProfileId: string | null;

  @Column({ name: 'recipient_profile_id', type: 'char', length: 8, nullable: true })
  recipientProfileId: string | null;

  @Column({ name: 'transfer_id', type: 'uuid', nullable: true })
  transferId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'updated_by', type: 'text' })
  updatedBy: string;

  /** Lower-cased e-mail, comment, profile ids and payment id: what the `keyWord` filter searches. */
  @Column({ name: 'search_text', type: 'text' })
  searchText: string;
}

/** One posting as seen from one account; `amountMinor` is signed (+ credits the account). */
@Entity({ name: 'ledger_entries' })
export class LedgerEntryRow {
  @PrimaryColumn({ name: 'entry_id', type: 'bigint' })
  entryId: string;

  @Column({ name: 'transaction_id', type: 'uuid' })
  transactionId: string;

  @Column({ name: 'posting_index', type: 'smallint' })
  postingIndex: number;

  @Column({ type: 'text' })
  account: string;

  @Column({ name: 'counter_account', type: 'text' })
  counterAccount: string;

  @Column({ name: 'amount_minor', type: 'bigint' })
  amountMinor: string;

  /** Running balance of `user:` accounts; null for system accounts, whose rows would otherwise be a hot spot. */
  @Column({ name: 'balance_after_minor', type: 'bigint', nullable: true })
  balanceAfterMinor: string | null;

  @Column({ name: 'payment_id', type: 'bigint', nullable: true })
  paymentId: string | null;

  @Column({ name: 'event_type', type: 'text' })
  eventType: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  @Column({ name: 'global_position', type: 'bigint' })
  globalPosition: string;
}

@Entity({ name: 'account_balances' })
export class AccountBalanceRow {
  @PrimaryColumn({ type: 'text' })
  account: string;

  @Column({ name: 'balance_minor', type: 'bigint' })
  balanceMinor: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

@Entity({ name: 'wallet_snapshots' })
export class WalletSnapshotRow {
  @PrimaryColumn({ name: 'stream_id', type: 'text' })
  streamId: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'jsonb' })
  state: unknown;
}

@Entity({ name: 'idempotency_keys' })
export class IdempotencyKeyRow {
  @PrimaryColumn({ name: 'actor_uuid', type: 'uuid' })
  actorUuid: string;

  @PrimaryColumn({ type: 'text' })
  key: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash: string;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'jsonb', nullable: true })
  response: unknown;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
