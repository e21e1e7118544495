import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../../../platform/auth';
import { CardProvider } from '../../../../platform/card-provider';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import type { OpenedCheckout } from '../../domain/deposits';
import { nextPaymentIds } from '../../infrastructure/ledger-streams';

/** A card deposit as a checkout session names it: whose it is. */
export interface CardDepositRow {
  paymentId: number;
  userUuid: string;
}

/**
 * Card deposits at the card provider (docs/adr/0029-card-checkout.md): whether one is configured, a deposit's
 * checkout, and the deposit a checkout session belongs to. Whatever the deposit pays for (a purchase, or nothing but
 * the balance) is the caller's: it records the deposit with `openCardDeposit` and settles each report with
 * `settleCardReport` (`domain/`) in its own command.
 */
@Injectable()
export class CardDepositCheckouts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly provider: CardProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Whether a card provider is configured (`STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET`). */
  get available(): boolean {
    return this.provider.available;
  }

  /**
   * The checkout of a card deposit of `amountMinor` about to be opened, asked of the provider before anything is
   * recorded: a provider that does not answer leaves no PENDING payment behind.
   */
  async open(command: { owner: Actor; amountMinor: number; productName: string }): Promise<OpenedCheckout> {
    const { owner, amountMinor, productName } = command;
    const [paymentId] = await nextPaymentIds(this.dataSource.manager, 1);
    const checkout = await this.provider.createCheckout({
      paymentId,
      amountMinor,
      productName,
      customerEmail: owner.email,
      successUrl: `${this.config.publicUrl}/paymentSuccess?paymentId=${paymentId}`,
      cancelUrl: `${this.config.publicUrl}/paymentFailed?paymentId=${paymentId}`,
    });
    return {
      paymentId,
      owner: { userUuid: owner.userUuid, email: owner.email },
      amountMinor,
      checkoutSessionId: checkout.checkoutSessionId,
      url: checkout.url,
      provider: this.provider.name,
    };
  }

  /** The card deposit a checkout session belongs to; null when it is none of ours. */
  async depositOf(checkoutSessionId: string, paymentId: number | null): Promise<CardDepositRow | null> {
    if (paymentId === null) return null;
    const rows: Array<{ payment_id: string; user_uuid: string }> = await this.dataSource.query(
      `SELECT payment_id::text, user_uuid::text FROM payments
        WHERE payment_id = $1 AND aggregator = 'STRIPE' AND card_checkout_session_id = $2`,
      [paymentId, checkoutSessionId],
    );
    const row = rows[0];
    return row ? { paymentId: Number(row.payment_id), userUuid: row.user_uuid } : null;
  }
}
