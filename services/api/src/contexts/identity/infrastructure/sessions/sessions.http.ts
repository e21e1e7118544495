import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  type EndClientSessionsRequest,
  LIMITS,
  STAFF_SESSION_END_REASONS,
  type StaffSessionEndReason,
  type UserSessionView,
} from '@kupa/proto';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { CanonicalUuidPipe, OptionalField, Trimmed } from '../../../../platform/http';

/** A path session id; a malformed one names no session, so it answers like a missing one (404). */
export const SessionIdPipe = CanonicalUuidPipe('error.session.not.found');

export class UserSessionDto implements UserSessionView {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: String, nullable: true, example: 'Chrome 131' })
  browser: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Windows 10' })
  os: string | null;

  @ApiProperty({ enum: ['desktop', 'mobile', 'tablet', 'other'] })
  deviceType: UserSessionView['deviceType'];

  @ApiProperty({ type: String, nullable: true })
  ipAddress: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'IL',
    description:
      'The country of the sign-in address, ISO 3166-1 alpha-2 (IP2Location LITE, ADR 0101); null for IPv6, private or unknown addresses',
  })
  countryCode: string | null;

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({ format: 'date-time', description: 'The last refresh of the session' })
  lastUsedAt: string;

  @ApiProperty({ description: 'Whether this is the session of the request' })
  current: boolean;
}

export class EndedSessionsDto {
  @ApiProperty({ description: 'How many sessions ended' })
  ended: number;
}

export class EndClientSessionsRequestDto implements EndClientSessionsRequest {
  @ApiProperty({ enum: STAFF_SESSION_END_REASONS, description: 'Told to the client at their next request' })
  @IsIn(STAFF_SESSION_END_REASONS)
  reason: StaffSessionEndReason;

  @ApiPropertyOptional({ maxLength: LIMITS.noteMaxLength, description: 'For the activity log only' })
  @OptionalField()
  @Trimmed()
  @IsString()
  @MaxLength(LIMITS.noteMaxLength)
  note?: string;
}

export class SessionEndLinkRequestDto {
  @ApiProperty({ maxLength: 200, description: 'The token of the new-device mail’s link' })
  @IsString()
  @MaxLength(200)
  token: string;
}
