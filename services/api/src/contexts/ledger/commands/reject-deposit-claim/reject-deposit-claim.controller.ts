import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { DepositClaimIdPipe } from '../../infrastructure/params';
import { RejectDepositClaimCommand } from './reject-deposit-claim.command';
import { RejectDepositClaimRequestDto } from './reject-deposit-claim.request.dto';

@ApiTags('deposit-claims')
@ApiBearerAuth()
@Controller('deposit-claims')
export class RejectDepositClaimController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/rejection')
  @HttpCode(204)
  @ApiUuidParam('id')
  @ApiNoContentResponse({ description: 'Rejected; the client is told the reason in the portal' })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('ADMIN', 'MANAGER')
  @ApiOperation({ summary: 'Rejects an open manual-transfer claim with a reason; a closed one is 409' })
  async reject(
    @Param('id', DepositClaimIdPipe) claimId: string,
    @Body() request: RejectDepositClaimRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new RejectDepositClaimCommand(claimId, request.reason, context));
  }
}
