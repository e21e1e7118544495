import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SandboxInvoiceOwners } from '../../../../platform/cashier';

/** The owner of a crypto deposit, by the payment id an invoice names as its `order_id`. */
@Injectable()
export class CashierInvoiceOwners extends SandboxInvoiceOwners {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async ownerOf(orderId: string): Promise<string | null> {
    if (!/^[0-9]{1,15}$/.test(orderId)) return null;
    const rows: Array<{ user_uuid: string }> = await this.dataSource.query(
      `SELECT user_uuid::text FROM payments WHERE payment_id = $1 AND aggregator = 'CASHIER'`,
      [Number(orderId)],
    );
    return rows[0]?.user_uuid ?? null;
  }
}
