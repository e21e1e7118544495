import { ApiProperty } from '@nestjs/swagger';
import { checkIsoDateTime, PATTERNS } from '@kupa/proto';
import { IsDefined, IsString } from 'class-validator';
import { SatisfiesRule } from '../../../../platform/http';

/** The query string of `GET /users/{uuid}/balance`. */
export class GetBalanceAtRequestDto {
  @ApiProperty({
    type: String,
    pattern: PATTERNS.isoDateTime.source,
    description:
      'The instant, postings at it included: a calendar day (its first instant in UTC) or an instant with its offset',
  })
  @IsDefined()
  @IsString()
  @SatisfiesRule(checkIsoDateTime)
  at!: string;
}
