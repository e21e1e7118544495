import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { Page, Payment } from '@kupa/proto';
import { type Actor, CurrentActor, ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/params';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { SearchPaymentsQuery } from './search-payments.query';
import { SearchPaymentsRequestDto } from './search-payments.request.dto';
import { PaymentPageDto } from '../../infrastructure/ledger.responses';

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class SearchPaymentsController {
  constructor(private readonly queries: QueryBus) {}

  @Post('search')
  @ReadOnlyRoute()
  @ApiOkResponse({ type: PaymentPageDto })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN', 'CLIENT', 'AMBASSADOR')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search payments: admins see all, clients and ambassadors their own' })
  search(@CurrentActor() actor: Actor, @Body() request: SearchPaymentsRequestDto): Promise<Page<Payment>> {
    return this.queries.execute(new SearchPaymentsQuery(actor, request, null));
  }

  @Post('search/:userUuid')
  @ReadOnlyRoute()
  @ApiUuidParam('userUuid')
  @ApiOkResponse({ type: PaymentPageDto })
  @ApiErrors(400, 401, 403, 404)
  @HttpCode(200)
  @ApiOperation({ summary: "Search one user's payments: staff, or the user themself" })
  searchByUser(
    @CurrentActor() actor: Actor,
    @Param('userUuid', UserUuidPipe) userUuid: string,
    @Body() request: SearchPaymentsRequestDto,
  ): Promise<Page<Payment>> {
    return this.queries.execute(new SearchPaymentsQuery(actor, request, userUuid));
  }
}
