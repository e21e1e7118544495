import { Logger } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import type { DataSource } from 'typeorm';
import { systemContext } from '../../../../platform/auth';
import { type CardProvider, cardStatusOf } from '../../../../platform/card-provider';
import type { Clock } from '../../../../platform/clock';
import type { Sweep, SweepPass } from '../../../../platform/jobs';
import type { CardDepositCheckouts } from '../../../ledger';
import { SettleCardPaymentCommand } from '../../commands/settle-card-payment/settle-card-payment.command';

export const CARD_JANITOR_SWEEP = 'card-janitor';
/** Checkouts looked at per pass. */
export const CARD_JANITOR_BATCH = 50;
/** The event type the janitor's reports are recorded under, beside the provider's webhook event types. */
export const CARD_JANITOR_REPORT_TYPE = 'kupa.card_janitor';

/**
 * The card janitor (docs/adr/0029-card-checkout.md): a card checkout still PENDING once the window
 * (`CARD_PENDING_TIMEOUT_MINUTES`) has passed since it opened is asked about at the provider, as a lost webhook would
 * have told it. One still open is closed there first, so that nobody pays it after we gave up on it; then what the
 * provider says is booked like a webhook: paid credits the card money and buys the package in one append, expired
 * becomes TIMEOUT. A checkout the customer finished with a delayed method that has not settled stays PENDING, for
 * its webhook. A provider that does not answer leaves the checkout for the next pass.
 *
 * Only checkouts the configured provider holds are asked about (docs/adr/0080-sandbox-card-checkout.md): one opened
 * at the sandbox card is unknown to Stripe and the other way round, and its report would not be taken anyway.
 *
 * Each report is recorded under an event id of its own per checkout and status, so a second pass over the same
 * answer changes nothing, and the provider's real webhooks, arriving later, find the checkout settled.
 */
export class CardJanitor implements Sweep {
  readonly name = CARD_JANITOR_SWEEP;
  private readonly logger = new Logger('CardJanitor');

  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: CardProvider,
    private readonly cards: CardDepositCheckouts,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
    private readonly windowMinutes: number,
    readonly intervalMs: number,
  ) {}

  async sweep(): Promise<SweepPass> {
    if (!this.provider.available) return { acted: 0, more: false };
    const dueBefore = new Date(this.clock.now().getTime() - this.windowMinutes * 60_000);
    const rows: Array<{ payment_id: string; card_checkout_session_id: string }> = await this.dataSource.query(
      `SELECT payment_id::text, card_checkout_session_id FROM payments
        WHERE aggregator = 'STRIPE' AND status = 'PENDING' AND card_checkout_session_id IS NOT NULL
          AND card_provider = $3 AND created_at <= $1
        ORDER BY created_at, payment_id LIMIT $2`,
      [dueBefore, CARD_JANITOR_BATCH, this.provider.name],
    );
    let acted = 0;
    for (const row of rows) {
      const sessionId = row.card_checkout_session_id;
      try {
        let checkout = await this.provider.retrieveCheckout(sessionId);
        if (checkout.status === 'open') checkout = await this.provider.expireCheckout(sessionId);
        const deposit = await this.cards.depositOf(sessionId, Number(row.payment_id));
        if (deposit === null) continue;
        const providerStatus = cardStatusOf(checkout, CARD_JANITOR_REPORT_TYPE);
        await this.commands.execute(
          new SettleCardPaymentCommand(
            deposit,
            {
              provider: this.provider.name,
              providerEventId: `${CARD_JANITOR_REPORT_TYPE}:${sessionId}:${providerStatus}`,
              providerEventType: CARD_JANITOR_REPORT_TYPE,
              providerPaymentId: checkout.providerPaymentId,
              providerStatus,
              amountTotalMinor: checkout.amountTotalMinor ?? 0,
              currency: checkout.currency,
            },
            systemContext(),
          ),
        );
        acted += 1;
      } catch (error) {
        this.logger.warn(`Card checkout ${sessionId} could not be re-checked: ${String(error)}`);
      }
    }
    // One batch per pass: a checkout waiting on a delayed payment stays PENDING and would be found again at once.
    return { acted, more: false };
  }
}
