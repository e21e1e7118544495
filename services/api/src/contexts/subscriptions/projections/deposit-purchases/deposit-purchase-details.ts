import { Injectable } from '@nestjs/common';
import { DepositPurchaseDetails } from '../../../ledger';
import { DEPOSIT_PURCHASE_DETAILS_VIEW } from './deposit-purchases.projection';

/** The ledger's payments list shows what a deposit buys from the subscriptions' read model (ADR 0068). */
@Injectable()
export class SubscriptionDepositPurchaseDetails extends DepositPurchaseDetails {
  readonly relation = DEPOSIT_PURCHASE_DETAILS_VIEW;
}
