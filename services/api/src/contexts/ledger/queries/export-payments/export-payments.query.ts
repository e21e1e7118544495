import type { ExportPaymentsRequestDto } from './export-payments.request.dto';

/** Answers the CSV as an async sequence of chunks, which the caller pulls at the pace its client reads. */
export class ExportPaymentsQuery {
  constructor(readonly request: ExportPaymentsRequestDto) {}
}
