import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { type AccountHistory, isLedgerAccount, LIMITS, SYSTEM_ACCOUNTS, USER_ACCOUNT_PREFIX } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { ValidationFailedError, ApiErrors } from '../../../../platform/http';
import { GetAccountHistoryQuery } from './get-account-history.query';
import { GetAccountHistoryRequestDto } from './get-account-history.request.dto';
import { AccountHistoryDto } from '../../infrastructure/ledger.responses';

/** What `isLedgerAccount` accepts, as the path parameter's pattern in the OpenAPI document. */
const ACCOUNT_PATTERN = `^(?:${USER_ACCOUNT_PREFIX}[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}|${SYSTEM_ACCOUNTS.join('|')})$`;

@ApiTags('ledger')
@ApiBearerAuth()
@Controller('ledger/accounts')
export class GetAccountHistoryController {
  constructor(
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  @Get(':account/history')
  @ApiOkResponse({ type: AccountHistoryDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @ApiParam({
    name: 'account',
    schema: { type: 'string', pattern: ACCOUNT_PATTERN },
    description: '`user:{uuid}` or a system account such as `world:manual`; anything else is 400',
  })
  @ApiOperation({ summary: "An account's balance at an instant and its postings up to then, newest first (staff)" })
  history(@Param('account') account: string, @Query() request: GetAccountHistoryRequestDto): Promise<AccountHistory> {
    if (!isLedgerAccount(account)) {
      throw new ValidationFailedError([{ field: 'account', error: 'error.validation.invalid.format' }]);
    }
    const asOf = request.asOf ? new Date(request.asOf) : this.clock.now();
    return this.queries.execute(
      new GetAccountHistoryQuery(
        account,
        asOf,
        request.page ?? LIMITS.pageDefault,
        request.size ?? LIMITS.pageSizeDefault,
      ),
    );
  }
}
