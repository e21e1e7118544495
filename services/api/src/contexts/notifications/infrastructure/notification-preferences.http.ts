import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  NOTIFICATION_KIND_RULES,
  NOTIFICATION_PREFERENCE_KINDS,
  NOTIFICATION_PREFERENCE_LIMITS,
  type NotificationChannel,
  type NotificationPreferenceKind,
  type NotificationPreferences,
  type QuietHours,
} from '@kupa/proto';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { OptionalField } from '../../../platform/http';

/** The requests and answers of the preference routes (docs/adr/0102-notification-preferences.md); proto's shapes. */

/** Each kind, with the channels it is offered on (one property per kind, so that the object stays closed). */
const CHANNELS_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  description: 'For each kind, the channels it goes on',
  properties: Object.fromEntries(
    NOTIFICATION_PREFERENCE_KINDS.map((kind) => [
      kind,
      { type: 'array', items: { type: 'string', enum: [...NOTIFICATION_KIND_RULES[kind].offered] } },
    ]),
  ),
};

/** One kind's channels in a change: an array of the channels it is offered on (the rule refuses any other). */
function kindChoice(kind: NotificationPreferenceKind): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'array', items: { type: 'string', enum: [...NOTIFICATION_KIND_RULES[kind].offered] } }),
    OptionalField(),
    IsArray({ message: 'error.validation.failed' }),
    IsString({ each: true, message: 'error.notification.preferences.channel.not.offered' }),
  );
}

/**
 * The channels of a change, one property per kind, so that the validation pipe names a kind sent as null or as
 * something other than a list, and refuses a kind it does not know as an unknown field.
 */
export class ChannelsChoiceDto implements Partial<Record<NotificationPreferenceKind, string[]>> {
  @kindChoice('renewal-reminders')
  'renewal-reminders'?: string[];

  @kindChoice('renewal-results')
  'renewal-results'?: string[];

  @kindChoice('payments')
  payments?: string[];

  @kindChoice('subscription-status')
  'subscription-status'?: string[];

  @kindChoice('announcements')
  announcements?: string[];

  @kindChoice('new-device')
  'new-device'?: string[];

  @kindChoice('low-balance')
  'low-balance'?: string[];

  @kindChoice('transfers')
  transfers?: string[];

  /** Staff only (ADR 0106); a client who sends it is refused. */
  @kindChoice('staff-alerts')
  'staff-alerts'?: string[];
}

export class QuietHoursDto implements QuietHours {
  @ApiProperty({ example: '22:00', description: 'Local time HH:MM when Telegram falls silent' })
  @IsString({ message: 'error.notification.preferences.quiet.hours.invalid' })
  from: string;

  @ApiProperty({ example: '07:00', description: 'Local time HH:MM when it may speak again; before `from`: next day' })
  @IsString({ message: 'error.notification.preferences.quiet.hours.invalid' })
  to: string;

  @ApiProperty({ example: 'Asia/Jerusalem', maxLength: NOTIFICATION_PREFERENCE_LIMITS.timeZoneMaxLength })
  @IsString({ message: 'error.notification.preferences.time.zone.invalid' })
  timeZone: string;
}

export class NotificationPreferencesDto implements NotificationPreferences {
  @ApiProperty(CHANNELS_SCHEMA)
  channels: Record<NotificationPreferenceKind, NotificationChannel[]>;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: NOTIFICATION_PREFERENCE_LIMITS.leadDaysMin,
    maximum: NOTIFICATION_PREFERENCE_LIMITS.leadDaysMax,
  })
  leadDays: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: NOTIFICATION_PREFERENCE_LIMITS.lowBalanceThresholdMaxMinor,
  })
  lowBalanceThresholdMinor: number | null;

  @ApiProperty({ type: QuietHoursDto, nullable: true })
  quietHours: QuietHours | null;
}

/**
 * The whole setting, as PUT replaces it: a kind left out of `channels` has its defaults, a field left out is off: no
 * personal lead days, no low-balance notice, no quiet hours. The two numbers may also be null; `channels` and
 * `quietHours` may not (their schemas are objects, and a null would otherwise read as left out).
 */
export class ChangeNotificationPreferencesDto {
  @ApiPropertyOptional({ type: ChannelsChoiceDto, description: 'For each kind, the channels it goes on' })
  @OptionalField()
  @IsObject({ message: 'error.validation.failed' })
  @ValidateNested()
  @Type(() => ChannelsChoiceDto)
  channels?: ChannelsChoiceDto;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: NOTIFICATION_PREFERENCE_LIMITS.leadDaysMin,
    maximum: NOTIFICATION_PREFERENCE_LIMITS.leadDaysMax,
  })
  @IsOptional()
  @IsInt({ message: 'error.notification.preferences.lead.days.range' })
  leadDays?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: NOTIFICATION_PREFERENCE_LIMITS.lowBalanceThresholdMaxMinor,
  })
  @IsOptional()
  @IsInt({ message: 'error.notification.preferences.threshold.range' })
  lowBalanceThresholdMinor?: number | null;

  @ApiPropertyOptional({ type: QuietHoursDto, description: 'Left out: no quiet hours' })
  @OptionalField()
  @ValidateNested()
  @Type(() => QuietHoursDto)
  quietHours?: QuietHoursDto;
}
