import { Body, Controller, Headers, HttpCode, Logger, Post, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { type Language, LANGUAGES } from '@kupa/proto';
import type { Response } from 'express';
import { once } from 'node:events';
import { Roles } from '../../../../platform/auth';
import { type CsvChunks, ExportPaymentsQuery } from './export-payments.query';
import { ExportPaymentsRequestDto } from './export-payments.request.dto';
import { acceptedLanguage, ApiErrors } from '../../../../platform/http';

export const PAYMENTS_CSV_FILE_NAME = 'payments.csv';

/**
 * The file's language when the request asks for none of ours: English, the language finance tools and colleagues
 * abroad read most widely (docs/adr/0020-payments-csv-for-spreadsheets.md). The console always sends its own.
 */
export const PAYMENTS_CSV_DEFAULT_LANGUAGE: Language = 'en';

const CSV_HEADERS = {
  'Content-Disposition': {
    description: `attachment; filename="${PAYMENTS_CSV_FILE_NAME}"`,
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': { description: 'no-store', required: true, schema: { type: 'string' } },
  'Content-Language': {
    description: "The file's language, chosen by the request's Accept-Language",
    required: true,
    schema: { type: 'string', enum: [...LANGUAGES] },
  },
  Vary: { description: 'Accept-Language', required: true, schema: { type: 'string' } },
};

@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments')
export class ExportPaymentsController {
  private readonly logger = new Logger('ExportPaymentsController');

  constructor(private readonly queries: QueryBus) {}

  @Post('export')
  @ApiOkResponse({
    description: 'A UTF-8 CSV file with a byte order mark, streamed',
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: CSV_HEADERS,
  })
  @ApiHeader({
    name: 'Accept-Language',
    required: false,
    description:
      'The header row and the status, type, method and aggregator labels: `he` or `en` (English when absent)',
    schema: { type: 'string', example: 'he' },
  })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN')
  @HttpCode(200)
  @ApiOperation({ summary: 'Every payment matching the filters as a streamed CSV file (admins)' })
  async export(
    @Body() request: ExportPaymentsRequestDto,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const language = acceptedLanguage(acceptLanguage, PAYMENTS_CSV_DEFAULT_LANGUAGE);
    const chunks = await this.queries.execute(new ExportPaymentsQuery(request, language));
    response.status(200);
    response.setHeader('Content-Type', 'text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="${PAYMENTS_CSV_FILE_NAME}"`);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Content-Language', language);
    // The same filters in another language are another file: caches between here and the console must keep them apart.
    response.setHeader('Vary', 'Accept-Language');
    await this.stream(chunks, response);
  }

  /**
   * Writes chunk after chunk, waiting for `drain` whenever the socket's buffer is full, so that a slow reader holds
   * the database cursor back instead of filling memory. A client that goes away ends the loop, and leaving the
   * loop closes the cursor. A failure after the first byte cannot become an error body any more: the connection is
   * destroyed so the client sees an incomplete download, never a silently truncated file.
   */
  private async stream(chunks: CsvChunks, response: Response): Promise<void> {
    let gone = false;
    const markGone = (): void => {
      gone = true;
    };
    // `once` also settles on an 'error' event; either way the client is gone.
    const closed = once(response, 'close').then(markGone, markGone);
    try {
      for await (const chunk of chunks) {
        if (gone || response.destroyed) break;
        if (!response.write(chunk)) await Promise.race([once(response, 'drain'), closed]);
        if (gone || response.destroyed) break;
      }
      if (!gone && !response.destroyed) response.end();
    } catch (error) {
      if (!response.headersSent) throw error;
      this.logger.error(`Payments export failed mid-stream: ${error instanceof Error ? error.message : String(error)}`);
      response.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
