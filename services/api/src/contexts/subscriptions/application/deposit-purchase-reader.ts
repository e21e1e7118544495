import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventStore } from '../../../platform/event-store/event-store.port';
import { CryptoDepositInvoices } from '../../ledger';
import type { DepositPurchaseState } from '../domain/deposit-purchase.decider';
import { depositPurchaseStreams } from '../infrastructure/deposit-purchase-streams';

/** A deposit's purchase as the subscriptions read it: who paid, what for, how it stands, and what the deposit brought. */
export interface DepositPurchaseView {
  paymentId: number;
  userUuid: string;
  purchase: DepositPurchaseState;
  /** What the deposit brought so far, in cents (the ledger's fact). */
  amountReceivedMinor: number;
  /** Whether the money came by card checkout (docs/adr/0029-card-checkout.md) rather than the crypto cashier. */
  byCard: boolean;
}

/** Reads a deposit's purchase without locks: its own fold (ADR 0068) with the ledger's facts of the deposit. */
@Injectable()
export class DepositPurchaseReader {
  constructor(
    private readonly store: EventStore,
    private readonly deposits: CryptoDepositInvoices,
    private readonly dataSource: DataSource,
  ) {}

  /** Of the given deposits, those whose purchase still waits (the `deposit_purchases` read model): what to run. */
  async waitingAmong(paymentIds: readonly number[]): Promise<number[]> {
    if (paymentIds.length === 0) return [];
    const rows: Array<{ payment_id: string }> = await this.dataSource.query(
      `SELECT payment_id::text FROM deposit_purchases
        WHERE payment_id = ANY($1::bigint[]) AND status = 'WAITING' ORDER BY payment_id`,
      [paymentIds],
    );
    return rows.map((row) => Number(row.payment_id));
  }

  /** Null for a deposit that pays for no purchase. */
  async find(paymentId: number): Promise<DepositPurchaseView | null> {
    const purchase = await depositPurchaseStreams.currentState(this.store, paymentId);
    if (purchase === null) return null;
    const deposit = await this.deposits.depositFacts(paymentId);
    if (deposit === null) return null;
    return { ...deposit, purchase };
  }
}
