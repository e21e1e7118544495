import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  AUDIT_OPERATION_TYPES,
  AUDIT_TARGET_TYPES,
  type AuditChange,
  type AuditLog,
  type AuditOperationType,
  type AuditRef,
  type AuditTargetType,
} from '@kupa/proto';
import { InstantProperty, PageOf } from '../../../platform/http';

/** The activity-log answers as OpenAPI schemas; the shapes themselves are proto's payload types. */

/** Any JSON value: a field's value before or after a change. */
const ANY_VALUE = {
  nullable: true,
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
};

export class AuditActorDto {
  @ApiProperty({ description: "The actor's uuid, or the SYSTEM id" })
  id: string;

  @ApiProperty()
  name: string;
}

export class AuditRefDto implements AuditRef {
  @ApiProperty({ enum: AUDIT_TARGET_TYPES })
  type: AuditTargetType;

  @ApiProperty({ description: "A user's uuid, a payment's number, or another target's id" })
  id: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "The person's full name for ADMIN, MANAGER and CLIENT refs, a package's name, a subscription's package name; " +
      'read when the entry is read; else null',
  })
  name: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: "The person's e-mail, like `name`; else null" })
  email: string | null;

  @ApiPropertyOptional({
    description:
      "True when `name` is the last one the target's own entries recorded, because it no longer exists (a deleted " +
      'package); left out otherwise',
  })
  nameRecorded?: boolean;

  @ApiPropertyOptional({
    enum: ['subscriptionType'],
    description:
      "Set when `name` is a value of this enum, not a name (a trial subscription by its type): show the enum's label; " +
      'left out otherwise',
  })
  nameEnum?: 'subscriptionType';
}

export class AuditChangeDto implements AuditChange {
  @ApiProperty()
  field: string;

  @ApiProperty(ANY_VALUE)
  oldValue: unknown;

  @ApiProperty(ANY_VALUE)
  newValue: unknown;
}

export class AuditLogDto implements AuditLog {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @InstantProperty()
  createdAt: string;

  @ApiProperty({ type: AuditActorDto })
  createdBy: AuditActorDto;

  @ApiProperty({ enum: AUDIT_OPERATION_TYPES })
  operationType: AuditOperationType;

  @ApiProperty({ type: AuditRefDto })
  target: AuditRefDto;

  @ApiProperty({ type: AuditRefDto, nullable: true })
  parent: AuditRefDto | null;

  @ApiProperty({ type: [AuditChangeDto] })
  changes: AuditChangeDto[];

  @ApiProperty({ example: 'UserProfileUpdated' })
  eventType: string;
}

export const AuditLogPageDto = PageOf(AuditLogDto);
