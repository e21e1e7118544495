import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BalanceAtInstant } from '@kupa/proto';
import type { Response } from 'express';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserUuidPipe } from '../../infrastructure/params';
import { BalanceAtInstantDto } from '../../infrastructure/ledger.responses';
import { GetBalanceAtQuery } from './get-balance-at.query';
import { GetBalanceAtRequestDto } from './get-balance-at.request.dto';

@ApiTags('ledger')
@ApiBearerAuth()
@Controller('users')
export class GetBalanceAtController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':userUuid/balance')
  @ApiUuidParam('userUuid')
  @ApiOkResponse({ type: BalanceAtInstantDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR')
  @ApiOperation({ summary: "A client's balance at an instant, from the ledger's as-of: staff, or the client themself" })
  balanceAt(
    @CurrentActor() actor: Actor,
    @Param('userUuid', UserUuidPipe) userUuid: string,
    @Query() request: GetBalanceAtRequestDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<BalanceAtInstant> {
    response.setHeader('Cache-Control', 'no-store');
    return this.queries.execute(new GetBalanceAtQuery(actor, userUuid, new Date(request.at)));
  }
}
