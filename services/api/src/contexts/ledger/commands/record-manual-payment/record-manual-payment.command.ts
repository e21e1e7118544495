import type { BalanceFixAction } from '@kupa/proto';
import type { Actor, RequestContext } from '../../../../platform/auth';

export class RecordManualPaymentCommand {
  constructor(
    readonly actor: Actor,
    readonly userUuid: string,
    readonly amountMinor: number,
    readonly action: BalanceFixAction,
    readonly comment: string,
    readonly correction: boolean,
    readonly idempotencyKey: string | null,
    readonly context: RequestContext,
  ) {}
}
