import type { CommandBus } from '@nestjs/cqrs';
import type { CashierDepositCreditedData } from '@kupa/proto';
import { systemContext } from '../../../../platform/auth';
import type { RecordedEvent } from '../../../../platform/event-store/event-store.port';
import type { Processor } from '../../../../platform/projections';
import type { DepositPurchaseReader } from '../../application/deposit-purchase-reader';
import { CompleteDepositPurchaseCommand } from '../../commands/complete-deposit-purchase/complete-deposit-purchase.command';

export const DEPOSIT_PURCHASES_PROCESSOR = 'deposit-purchases';

/**
 * The process manager of deposit-and-buy and deposit-and-renew (docs/adr/0030-deposit-and-buy.md): when the cashier
 * credits a deposit that pays for a purchase (`CashierDepositCredited`), it runs that purchase or renewal once, as
 * the system, with the credit's position as the causation id. Each run is its own command, which locks the deposit's
 * payment stream and does nothing once the purchase is DONE or FAILED: a batch handled again after a crash, a
 * deposit credited in parts, or the same notification delivered many times all end in one purchase. A failure that is
 * not a rule's refusal (the database went away) fails the batch, which is tried again.
 */
export class DepositPurchasesProcessor implements Processor {
  readonly name = DEPOSIT_PURCHASES_PROCESSOR;
  readonly handles = ['CashierDepositCredited'] as const;

  constructor(
    private readonly deposits: DepositPurchaseReader,
    private readonly commands: CommandBus,
  ) {}

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    const firstCredit = new Map<number, RecordedEvent>();
    for (const recorded of events) {
      const { paymentId } = recorded.data as CashierDepositCreditedData;
      if (!firstCredit.has(paymentId)) firstCredit.set(paymentId, recorded);
    }
    for (const paymentId of await this.deposits.waitingAmong([...firstCredit.keys()])) {
      const credit = firstCredit.get(paymentId) as RecordedEvent;
      await this.commands.execute(new CompleteDepositPurchaseCommand(paymentId, systemContext(), credit.eventId));
    }
  }
}
