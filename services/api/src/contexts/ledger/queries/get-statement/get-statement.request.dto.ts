import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { checkIsoDateTime, checkTimeZone, LIMITS, PATTERNS, PAYMENTS_CSV_DEFAULT_TIME_ZONE } from '@kupa/proto';
import { IsDefined, IsString } from 'class-validator';
import { OptionalField, SatisfiesRule } from '../../../../platform/http';

const INSTANT_DESCRIPTION =
  'A calendar day (`2026-05-01`, its first instant in UTC) or an instant with its offset (`2026-05-01T00:00:00+03:00`)';

/** The query string of `GET /users/{uuid}/statement`: the period [from, to), at most `statementPeriodMaxDays` long. */
export class GetStatementRequestDto {
  @ApiProperty({ type: String, pattern: PATTERNS.isoDateTime.source, description: `Included. ${INSTANT_DESCRIPTION}` })
  @IsDefined()
  @IsString()
  @SatisfiesRule(checkIsoDateTime)
  from!: string;

  @ApiProperty({ type: String, pattern: PATTERNS.isoDateTime.source, description: `Left out. ${INSTANT_DESCRIPTION}` })
  @IsDefined()
  @IsString()
  @SatisfiesRule(checkIsoDateTime)
  to!: string;
}

/** `GET /users/{uuid}/statement.csv`: the period, and the time zone the file's date-times are written in. */
export class GetStatementCsvRequestDto extends GetStatementRequestDto {
  @ApiPropertyOptional({
    pattern: PATTERNS.timeZone.source,
    maxLength: LIMITS.timeZoneMaxLength,
    default: PAYMENTS_CSV_DEFAULT_TIME_ZONE,
    example: 'Asia/Jerusalem',
    description: "An IANA time zone the file's date-times are written in, named in their header; UTC when absent",
  })
  @OptionalField()
  @IsString()
  @SatisfiesRule(checkTimeZone)
  timeZone?: string;
}
