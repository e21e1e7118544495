import type { Language } from '@kupa/proto';
import type { ExportPaymentsRequestDto } from './export-payments.request.dto';

/**
 * Answers the CSV as an async sequence of chunks, which the caller pulls at the pace its client reads. `language` is
 * the header's and the labels' (from the request's `Accept-Language`).
 */
export class ExportPaymentsQuery {
  constructor(
    readonly request: ExportPaymentsRequestDto,
    readonly language: Language,
  ) {}
}
