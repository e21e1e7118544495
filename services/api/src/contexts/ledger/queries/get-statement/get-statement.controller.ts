import { Controller, Get, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AccountStatement, LANGUAGES, PAYMENTS_CSV_DEFAULT_TIME_ZONE } from '@kupa/proto';
import type { Response } from 'express';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { acceptedLanguage, ApiError, ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserReader } from '../../../identity';
import { UserUuidPipe } from '../../infrastructure/params';
import { AccountStatementDto } from '../../infrastructure/ledger.responses';
import { GetStatementQuery } from './get-statement.query';
import { GetStatementCsvRequestDto, GetStatementRequestDto } from './get-statement.request.dto';
import { statementCsv } from './statement-csv';
import { statementPdf } from './statement-pdf';

const ACCEPT_LANGUAGE = {
  name: 'Accept-Language',
  required: false,
  description: "The descriptions' language, `he` or `en`; the account holder's own language when it names neither",
  schema: { type: 'string', example: 'he' },
} as const;

/** What the CSV and the PDF answer with beside their bytes. */
const statementFileHeaders = (extension: 'csv' | 'pdf') => ({
  'Content-Disposition': { description: `attachment; filename="statement-….${extension}"`, schema: { type: 'string' } },
  'Cache-Control': { description: 'no-store', schema: { type: 'string' } },
  'Content-Language': { description: "The file's language", schema: { type: 'string', enum: [...LANGUAGES] } },
  Vary: { description: 'Accept-Language', schema: { type: 'string' } },
});

/**
 * A client's statement (docs/product.md, Ledger, Statements; ADR 0096): staff on a client's detail, and the client
 * themself; another client's answers 404. The JSON answer is the one shape the screens, the CSV file and the PDF read.
 */
@ApiTags('ledger')
@ApiBearerAuth()
@Controller('users')
export class GetStatementController {
  constructor(
    private readonly queries: QueryBus,
    private readonly users: UserReader,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':userUuid/statement')
  @ApiUuidParam('userUuid')
  @ApiHeader(ACCEPT_LANGUAGE)
  @ApiOkResponse({ type: AccountStatementDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR')
  @ApiOperation({
    summary:
      "A client's statement over [from, to): opening balance, every posting in words, running and closing balance",
  })
  statement(
    @CurrentActor() actor: Actor,
    @Param('userUuid', UserUuidPipe) userUuid: string,
    @Query() request: GetStatementRequestDto,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AccountStatement> {
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Vary', 'Accept-Language');
    return this.statementOf(actor, userUuid, request, acceptLanguage);
  }

  @Get(':userUuid/statement.csv')
  @ApiUuidParam('userUuid')
  @ApiHeader(ACCEPT_LANGUAGE)
  @ApiOkResponse({
    description: 'A UTF-8 CSV file with a byte order mark: an opening row, one row per posting, a closing row',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: statementFileHeaders('csv'),
  })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR')
  @ApiOperation({ summary: "A client's statement over [from, to) as a CSV file for spreadsheets" })
  async statementCsv(
    @CurrentActor() actor: Actor,
    @Param('userUuid', UserUuidPipe) userUuid: string,
    @Query() request: GetStatementCsvRequestDto,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const statement = await this.statementOf(actor, userUuid, request, acceptLanguage);
    const file = statementCsv(statement, request.timeZone ?? PAYMENTS_CSV_DEFAULT_TIME_ZONE);
    sendStatementFile(response, statement, 'csv', 'text/csv; charset=utf-8', file);
  }

  @Get(':userUuid/statement.pdf')
  @ApiUuidParam('userUuid')
  @ApiHeader(ACCEPT_LANGUAGE)
  @ApiOkResponse({
    description:
      'A PDF file: the client and the period, opening and closing balance, a table of the postings in words with ' +
      'their running balance (its header repeated on every page), the operator on every page',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
    headers: statementFileHeaders('pdf'),
  })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER', 'CLIENT', 'AMBASSADOR')
  @ApiOperation({ summary: "A client's statement over [from, to) as a PDF file, in Hebrew or English" })
  async statementPdf(
    @CurrentActor() actor: Actor,
    @Param('userUuid', UserUuidPipe) userUuid: string,
    @Query() request: GetStatementCsvRequestDto,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const statement = await this.statementOf(actor, userUuid, request, acceptLanguage);
    // The query has let this reader through to the holder already; a user gone since reads as unknown.
    const holder = await this.users.findByUuid(userUuid);
    if (!holder) throw new ApiError('error.user.not.found');
    const pdf = await statementPdf(
      statement,
      holder,
      request.timeZone ?? PAYMENTS_CSV_DEFAULT_TIME_ZONE,
      this.config.operator,
      this.clock.now(),
    );
    sendStatementFile(response, statement, 'pdf', 'application/pdf', pdf);
  }

  private statementOf(
    actor: Actor,
    userUuid: string,
    request: GetStatementRequestDto,
    acceptLanguage: string | undefined,
  ): Promise<AccountStatement> {
    return this.queries.execute(
      new GetStatementQuery(
        actor,
        userUuid,
        new Date(request.from),
        new Date(request.to),
        acceptedLanguage(acceptLanguage, null),
      ),
    );
  }
}

/** A statement's file, named by its days, in the statement's language, never cached: it is personal data. */
function sendStatementFile(
  response: Response,
  statement: AccountStatement,
  extension: 'csv' | 'pdf',
  contentType: string,
  body: string | Buffer,
): void {
  const days = `${statement.from.slice(0, 10)}_${statement.to.slice(0, 10)}`;
  response.status(200);
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Disposition', `attachment; filename="statement-${days}.${extension}"`);
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Language', statement.language);
  response.setHeader('Vary', 'Accept-Language');
  response.send(body);
}
