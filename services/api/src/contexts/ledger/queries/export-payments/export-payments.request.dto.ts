import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  checkTimeZone,
  LIMITS,
  PATTERNS,
  PAYMENTS_CSV_DEFAULT_TIME_ZONE,
  type PaymentExportRequest,
} from '@kupa/proto';
import { IsString } from 'class-validator';
import { OptionalField, SatisfiesRule } from '../../../../platform/http';
import { PaymentSortsDto, WithPaymentFilters } from '../payment-rows/payment-filters.request.dto';

/**
 * `POST /payments/export`: the search's filters and sorts, without paging (the export holds every match), and the
 * time zone its date-times are written in (docs/api.md, CSV export).
 */
export class ExportPaymentsRequestDto extends WithPaymentFilters(PaymentSortsDto) implements PaymentExportRequest {
  @ApiPropertyOptional({
    pattern: PATTERNS.timeZone.source,
    maxLength: LIMITS.timeZoneMaxLength,
    default: PAYMENTS_CSV_DEFAULT_TIME_ZONE,
    example: 'Asia/Jerusalem',
    description: "An IANA time zone the file's date-times are written in, named in their headers; UTC when absent",
  })
  @OptionalField()
  @IsString()
  @SatisfiesRule(checkTimeZone)
  timeZone?: string;
}
