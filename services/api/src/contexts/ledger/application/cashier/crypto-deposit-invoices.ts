import { Injectable } from '@nestjs/common';
import type { CryptoMethod } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import { type DepositFacts, depositFacts, type OpenedInvoice } from '../../domain/deposits';
import { paymentStreams } from '../../infrastructure/ledger-streams';
import { CashierDeposits } from './cashier-deposits';

/**
 * Crypto deposits at the cashier as any flow opens them (docs/adr/0028-crypto-cashier.md, docs/adr/0030-deposit-and-
 * buy.md): the smallest deposit it takes, an invoice under the limits of every deposit, and what a deposit brought.
 * The caller records the deposit with `openCryptoDeposit` (`domain/deposits.ts`) in its own command, beside whatever
 * the deposit pays for.
 */
@Injectable()
export class CryptoDepositInvoices {
  constructor(
    private readonly deposits: CashierDeposits,
    private readonly store: EventStore,
  ) {}

  /** The smallest deposit the cashier takes, in cents. */
  minimumMinor(): number {
    return this.deposits.minimumMinor();
  }

  /**
   * A deposit's invoice, after the limits of every deposit (the amount within the cashier's range, the cap on unpaid
   * deposits); nothing is recorded yet.
   */
  async open(command: { owner: Actor; amountMinor: number; method: CryptoMethod }): Promise<OpenedInvoice> {
    const { owner, amountMinor, method } = command;
    await this.deposits.assertCanOpen(owner.userUuid, amountMinor);
    return this.deposits.openInvoice(owner, amountMinor, method);
  }

  /** A deposit's facts, folded from its stream without a lock; null for no such payment. */
  async depositFacts(paymentId: number): Promise<DepositFacts | null> {
    return depositFacts(await paymentStreams.currentState(this.store, paymentId));
  }
}
