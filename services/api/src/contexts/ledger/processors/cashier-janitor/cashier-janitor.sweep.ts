import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { systemContext } from '../../../../platform/auth';
import type { Clock } from '../../../../platform/clock';
import type { Sweep, SweepPass } from '../../../../platform/jobs';
import type { CashierDeposits } from '../../application/cashier/cashier-deposits';

export const CASHIER_JANITOR_SWEEP = 'cashier-janitor';
/** Deposits looked at per pass; a full batch asks for another pass at once. */
export const CASHIER_JANITOR_BATCH = 50;

/**
 * The cashier janitor (docs/adr/0028-crypto-cashier.md): crypto deposits still PENDING once the window
 * (`CASHIER_PENDING_TIMEOUT_MINUTES`) has passed since they opened are asked about once more at the provider (an IPN
 * may have been lost: the answer credits what arrived), and whatever is still PENDING after that becomes TIMEOUT.
 * A provider that does not answer does not keep a deposit pending: it times out, and a later IPN still credits it.
 */
export class CashierJanitor implements Sweep {
  readonly name = CASHIER_JANITOR_SWEEP;
  private readonly logger = new Logger('CashierJanitor');

  constructor(
    private readonly dataSource: DataSource,
    private readonly deposits: CashierDeposits,
    private readonly clock: Clock,
    private readonly windowMinutes: number,
    readonly intervalMs: number,
  ) {}

  async sweep(): Promise<SweepPass> {
    const dueBefore = new Date(this.clock.now().getTime() - this.windowMinutes * 60_000);
    const rows: Array<{ payment_id: string; provider_payment_id: string | null }> = await this.dataSource.query(
      `SELECT payment_id::text, provider_payment_id FROM payments
        WHERE aggregator = 'CASHIER' AND status = 'PENDING' AND created_at <= $1
        ORDER BY created_at, payment_id LIMIT $2`,
      [dueBefore, CASHIER_JANITOR_BATCH],
    );
    for (const row of rows) {
      const paymentId = Number(row.payment_id);
      const context = systemContext();
      try {
        if (row.provider_payment_id !== null) {
          await this.deposits.checkProviderPayment(row.provider_payment_id, 'JANITOR', context, true);
          continue;
        }
      } catch (error) {
        this.logger.warn(`Deposit ${paymentId} could not be re-checked with the cashier: ${String(error)}`);
      }
      await this.deposits.timeOutUnreported(paymentId, context);
    }
    return { acted: rows.length, more: rows.length === CASHIER_JANITOR_BATCH };
  }
}
