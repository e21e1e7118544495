import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { TransferRecipient } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors, RateLimit } from '../../../../platform/http';
import { TransferRecipientDto } from '../../infrastructure/ledger.responses';
import { RECIPIENT_LOOKUP_LIMITS } from '../../infrastructure/rate-limits';
import { LookUpTransferRecipientQuery } from './look-up-transfer-recipient.query';
import { LookUpTransferRecipientRequestDto } from './look-up-transfer-recipient.request.dto';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class LookUpTransferRecipientController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * Names a transfer's recipient before the sender confirms. A POST, so that the address stays out of URLs and logs;
   * rate limited per account and per address, sharing its allowance with transfers to unknown recipients.
   */
  @Post('transfer/recipient')
  @HttpCode(200)
  @ApiOperation({
    summary: "A transfer recipient's registered name and masked e-mail, before the transfer is confirmed",
  })
  @ApiOkResponse({ type: TransferRecipientDto })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  @Roles('CLIENT', 'AMBASSADOR')
  @RateLimit(RECIPIENT_LOOKUP_LIMITS)
  lookUp(@CurrentActor() actor: Actor, @Body() request: LookUpTransferRecipientRequestDto): Promise<TransferRecipient> {
    return this.queries.execute(new LookUpTransferRecipientQuery(actor, request.recipient));
  }
}
