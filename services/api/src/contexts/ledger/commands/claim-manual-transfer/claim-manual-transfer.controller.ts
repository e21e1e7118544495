import { Body, Controller, Header, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { DepositClaim } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { AcceptsIdempotencyKey, IdempotencyKeyHeader } from '../../../../platform/idempotency';
import { DepositClaimDto } from '../../infrastructure/ledger.responses';
import { moneyRequestInputs } from '../../infrastructure/money-requests';
import { ClaimManualTransferCommand } from './claim-manual-transfer.command';
import { ClaimManualTransferRequestDto } from './claim-manual-transfer.request.dto';

@ApiTags('deposit-claims')
@ApiBearerAuth()
@Controller('deposit-claims')
export class ClaimManualTransferController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * The client says they sent a bank transfer with their profile ID as the reference: an open claim staff settle by
   * recording the manual deposit for it (`POST /payments` with `claimId`), or reject. It moves no money.
   */
  @Post()
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({ type: DepositClaimDto, description: 'The open claim; a repeat with the same key answers it' })
  @ApiErrors(400, 401, 403, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  @AcceptsIdempotencyKey()
  claim(
    @CurrentActor() actor: Actor,
    @Body() request: ClaimManualTransferRequestDto,
    @IdempotencyKeyHeader() idempotencyKeyHeader: string | undefined,
    @ReqContext() context: RequestContext,
  ): Promise<DepositClaim> {
    const { idempotencyKey, amountMinor } = moneyRequestInputs(idempotencyKeyHeader, request.amount);
    return this.commands.execute(
      new ClaimManualTransferCommand(actor, amountMinor, request.note ?? null, idempotencyKey, context),
    );
  }
}
