import { Query } from '@nestjs/cqrs';
import type { Language } from '@kupa/proto';
import type { ExportPaymentsRequestDto } from './export-payments.request.dto';

export type CsvChunks = AsyncGenerator<string | Buffer, void, undefined>;

/**
 * Answers the CSV as an async sequence of chunks, which the caller pulls at the pace its client reads. `language` is
 * the header's and the labels' (from the request's `Accept-Language`).
 */
export class ExportPaymentsQuery extends Query<CsvChunks> {
  constructor(
    readonly request: ExportPaymentsRequestDto,
    readonly language: Language,
  ) {
    super();
  }
}
