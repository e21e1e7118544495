import { ApiProperty } from '@nestjs/swagger';
import {
  type AnnouncementPreference,
  BROADCAST_RECIPIENT_STATUSES,
  BROADCAST_STATUSES,
  type BroadcastDetail,
  type BroadcastPreview,
  type BroadcastRecipient,
  type BroadcastRecipientStatus,
  type BroadcastStatus,
  type BroadcastSummary,
  checkBroadcastBody,
  checkBroadcastSubject,
  type CreateBroadcastRequest,
  LANGUAGES,
  type Language,
  LIMITS,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsString, MaxLength, ValidateNested } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { InstantProperty, SatisfiesRule, Trimmed } from '../../../platform/http';
import { ClientFilterDto } from '../../identity';

/** The requests and answers of the broadcast routes (docs/adr/0091-broadcasts.md); the shapes are proto's. */

const SubjectField = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ minLength: 1, maxLength: LIMITS.broadcastSubjectMaxLength }),
    Trimmed(),
    SatisfiesRule(checkBroadcastSubject),
  );
const BodyField = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ minLength: 1, maxLength: LIMITS.broadcastBodyMaxLength, description: 'Plain text' }),
    Trimmed(),
    SatisfiesRule(checkBroadcastBody),
  );

export class CreateBroadcastRequestDto implements CreateBroadcastRequest {
  @SubjectField()
  subjectHe: string;

  @BodyField()
  bodyHe: string;

  @SubjectField()
  subjectEn: string;

  @BodyField()
  bodyEn: string;

  @ApiProperty({ type: ClientFilterDto, description: 'The staff clients list’s filters: who it goes to' })
  @IsDefined()
  @ValidateNested()
  @Type(() => ClientFilterDto)
  filter: ClientFilterDto;
}

export class BroadcastPreviewDto implements BroadcastPreview {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Clients the filter matches now' })
  recipients: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Of them, those who switched announcements off' })
  unsubscribed: number;
}

export class BroadcastSummaryDto implements BroadcastSummary {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: BROADCAST_STATUSES })
  status: BroadcastStatus;

  @ApiProperty()
  subjectHe: string;

  @ApiProperty()
  bodyHe: string;

  @ApiProperty()
  subjectEn: string;

  @ApiProperty()
  bodyEn: string;

  @ApiProperty({ type: ClientFilterDto })
  filter: ClientFilterDto;

  @InstantProperty()
  createdAt: string;

  @ApiProperty({ format: 'uuid', description: 'The admin who sent it' })
  createdBy: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  recipients: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Waiting for their turn under the rate' })
  queued: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  sent: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Left out: they switched announcements off' })
  skipped: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Their mail failed and is being retried' })
  failed: number;
}

export class BroadcastRecipientDto implements BroadcastRecipient {
  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  fullName: string;

  @ApiProperty({ enum: LANGUAGES })
  language: Language;

  @ApiProperty({ enum: BROADCAST_RECIPIENT_STATUSES })
  status: BroadcastRecipientStatus;
}

export class BroadcastDetailDto extends BroadcastSummaryDto implements BroadcastDetail {
  @ApiProperty({ type: [BroadcastRecipientDto] })
  recipientList: BroadcastRecipientDto[];
}

export class AnnouncementPreferenceDto implements AnnouncementPreference {
  @ApiProperty({ description: 'Whether the client receives announcements; service mails always go' })
  @IsBoolean()
  announcements: boolean;
}

/** The token travels in the query, where the one-click POST of a mail client (RFC 8058) sends it. */
export class UnsubscribeQueryDto {
  @ApiProperty({ maxLength: 200 })
  @IsString()
  @MaxLength(200)
  token: string;
}
