import { ApiProperty } from '@nestjs/swagger';
import {
  type ClientNotification,
  NOTIFICATION_KINDS,
  type NotificationKind,
  PAYMENT_METHODS,
  type PaymentMethod,
  type NotificationMailState,
  type NotificationPage,
  type NotificationParams,
  type SentNotification,
  SUBSCRIPTION_EXTENSION_SOURCES,
  type SubscriptionExtensionSource,
} from '@kupa/proto';
import { InstantProperty, PageOf } from '../../../platform/http';

/** The notification answers as OpenAPI schemas; the shapes themselves are proto's payload types. */

export class NotificationParamsDto implements NotificationParams {
  @ApiProperty({
    format: 'uuid',
    required: false,
    description: 'The reminders’ subscription; none for an announcement',
  })
  subscriptionId?: string;

  @ApiProperty({ type: 'string', nullable: true, required: false, description: 'Null for the trial' })
  planName?: string | null;

  @ApiProperty({ format: 'uuid', required: false, description: 'announcement: the broadcast (ADR 0091)' })
  broadcastId?: string;

  @ApiProperty({ required: false, description: 'announcement: its subject, in the client’s language' })
  subject?: string;

  @ApiProperty({ required: false, description: 'announcement: its text, in the client’s language' })
  body?: string;

  @ApiProperty({ type: 'integer', required: false, description: 'Cents the balance lacks for the renewal' })
  missingMinor?: number;

  @InstantProperty({ required: false })
  paymentDate?: string;

  @InstantProperty({ required: false })
  graceDeadline?: string;

  @InstantProperty({ required: false })
  endDate?: string;

  @ApiProperty({
    enum: ['DECLINED', 'REQUIRES_ACTION'],
    required: false,
    description:
      'renewal-failed: the saved card was tried first and was declined, or its bank wants its holder (ADR 0086)',
  })
  cardFailure?: 'DECLINED' | 'REQUIRES_ACTION';

  @ApiProperty({ type: 'integer', required: false, description: 'extended: the days added (ADR 0089)' })
  days?: number;

  @ApiProperty({ required: false, description: 'extended: why, in the words chosen for the client' })
  reason?: string;

  @ApiProperty({ enum: SUBSCRIPTION_EXTENSION_SOURCES, required: false, description: 'extended: how they were given' })
  source?: SubscriptionExtensionSource;

  @ApiProperty({ required: false, format: 'uuid', description: '`new-device`: the session that signed in (ADR 0099)' })
  sessionId?: string;

  @ApiProperty({ required: false, description: '`new-device`: its browser and system, in the client’s language' })
  device?: string;

  @ApiProperty({
    required: false,
    type: String,
    nullable: true,
    description: '`new-device`: the address it signed in from',
  })
  ipAddress?: string | null;

  @ApiProperty({
    required: false,
    type: String,
    nullable: true,
    example: 'IL',
    description: '`new-device`: the country of that address, ISO 3166-1 alpha-2 (ADR 0101); null when not known',
  })
  countryCode?: string | null;

  @ApiProperty({
    type: 'integer',
    required: false,
    description: '`deposit-credited`, `transfer-received`: the cents that arrived (ADR 0105)',
  })
  amountMinor?: number;

  @ApiProperty({ enum: PAYMENT_METHODS, required: false, description: '`deposit-credited`: how it was paid' })
  method?: PaymentMethod;

  @ApiProperty({
    type: 'integer',
    required: false,
    description: '`deposit-credited`, `transfer-received`: the client’s payment that recorded it',
  })
  paymentId?: number;

  @ApiProperty({
    required: false,
    type: String,
    nullable: true,
    description: '`transfer-received`: the sender’s name as they entered it; null when none (never an e-mail)',
  })
  senderName?: string | null;

  @ApiProperty({ required: false, description: '`transfer-received`: the sender’s profile ID' })
  senderProfileId?: string;

  @ApiProperty({
    type: 'integer',
    required: false,
    description: '`low-balance`: the balance in cents after the change that took it under the threshold',
  })
  balanceMinor?: number;

  @ApiProperty({ type: 'integer', required: false, description: '`low-balance`: the threshold in cents' })
  thresholdMinor?: number;

  @ApiProperty({ description: 'Where to act in the client portal (a path)' })
  link: string;
}

export class ClientNotificationDto implements ClientNotification {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: NOTIFICATION_KINDS })
  kind: NotificationKind;

  @ApiProperty({ type: NotificationParamsDto })
  params: NotificationParamsDto;

  @InstantProperty()
  createdAt: string;

  @InstantProperty({ nullable: true })
  readAt: string | null;
}

export class SentNotificationDto extends ClientNotificationDto implements SentNotification {
  @ApiProperty({ enum: ['PENDING', 'RETRYING', 'SENT', 'SKIPPED'], nullable: true })
  mailState: NotificationMailState | null;
}

/** A page of the client's own notifications, with how many of all of them are unread. */
export class NotificationPageDto extends PageOf(ClientNotificationDto) implements NotificationPage {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'All of the client’s unread notifications' })
  unreadCount: number;
}

export const SentNotificationPageDto = PageOf(SentNotificationDto);

export class MarkedReadDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many notifications this call marked read' })
  marked: number;
}
