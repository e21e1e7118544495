import { Body, Controller, Header, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { minorToAmount, normalizeVoucherCode, type VoucherPreview } from '@kupa/proto';
import { DataSource } from 'typeorm';
import { assert } from '../../../../kernel';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { EventStore } from '../../../../platform/event-store/event-store.port';
import { ApiError, ApiErrors, RateLimit } from '../../../../platform/http';
import { DayVoucherSubscriptions } from '../../application/day-voucher-subscriptions.port';
import { usableCode } from '../../domain/voucher-batch.decider';
import { voucherBatchStreams } from '../../infrastructure/ledger-streams';
import { VOUCHER_REDEMPTION_LIMITS } from '../../infrastructure/rate-limits';
import { VoucherCodes } from '../../infrastructure/voucher-codes';
import { VoucherPreviewDto } from '../../infrastructure/voucher.responses';
import { PreviewVoucherRequestDto } from './preview-voucher.request.dto';

/**
 * What a code would give before the client spends it (docs/adr/0089-prepaid-vouchers.md): the same look-up and the
 * same refusals as a redemption (a wrong code, one used, a batch not yet funded), counted against the same
 * wrong-code allowance, so previewing is no cheaper way to guess. A POST, because a code is a secret that must not
 * sit in a URL or a log; nothing changes.
 */
@ApiTags('vouchers')
@ApiBearerAuth()
@Controller('vouchers')
export class PreviewVoucherController {
  constructor(
    private readonly codes: VoucherCodes,
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly dayVouchers: DayVoucherSubscriptions,
  ) {}

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'What a voucher code would give the signed-in client (money, or days extending or starting a subscription)',
  })
  @ApiOkResponse({ type: VoucherPreviewDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  @Roles('CLIENT', 'AMBASSADOR')
  @RateLimit(VOUCHER_REDEMPTION_LIMITS)
  @Header('Cache-Control', 'no-store')
  async preview(@CurrentActor() actor: Actor, @Body() request: PreviewVoucherRequestDto): Promise<VoucherPreview> {
    const normalized = normalizeVoucherCode(request.code);
    const found = normalized === null ? null : await this.codes.find(this.dataSource.manager, normalized);
    if (!found) throw new ApiError('error.voucher.code.invalid');
    const batch = usableCode(found.codeIndex, await voucherBatchStreams.currentState(this.store, found.batchId));
    if (batch.kind !== 'DAYS')
      return {
        kind: 'MONEY',
        amount: minorToAmount(batch.amountMinor),
        days: null,
        planName: null,
        subscriptionId: null,
        endDate: null,
        newSubscription: false,
      };
    assert(batch.days !== null && batch.planId !== null, `day batch ${batch.batchId} names its days and package`);
    const outcome = await this.dayVouchers.preview({
      userUuid: actor.userUuid,
      planId: batch.planId,
      days: batch.days,
    });
    return {
      kind: 'DAYS',
      amount: 0,
      days: batch.days,
      planName: batch.planName,
      subscriptionId: outcome.subscriptionId,
      endDate: outcome.endDate,
      newSubscription: outcome.subscriptionId === null,
    };
  }
}
