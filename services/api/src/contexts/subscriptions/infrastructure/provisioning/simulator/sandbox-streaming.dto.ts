import { ApiProperty } from '@nestjs/swagger';
import { checkIsoDateTime, checkSubscriptionLogin, checkSubscriptionPassword } from '@kupa/proto';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { SatisfiesRule } from '../../../../../platform/http';
import type { StreamingAccount } from '../provisioning-provider.port';

/** Operations of the provisioning API a fault can be queued for. */
export const SANDBOX_FAULT_OPERATIONS = [
  'create',
  'lookup',
  'extend',
  'changeLogin',
  'changePassword',
  'disable',
] as const;
export type SandboxFaultOperation = (typeof SANDBOX_FAULT_OPERATIONS)[number];

/** transient: 503; permanent: 400; timeout: no answer for longer than the caller waits, then 503; login_taken: 409. */
export const SANDBOX_FAULT_MODES = ['transient', 'permanent', 'timeout', 'login_taken'] as const;
export type SandboxFaultMode = (typeof SANDBOX_FAULT_MODES)[number];

/** How many times one queued fault may fire. */
export const SANDBOX_FAULT_TIMES_MAX = 100;

const LOGIN_SCHEMA = { type: 'string', pattern: '^[a-z0-9._-]{6,64}$', example: 'dana.cohen' } as const;

export class StreamingAccountDto implements StreamingAccount {
  @ApiProperty(LOGIN_SCHEMA)
  login: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ enum: ['ACTIVE', 'DISABLED'] })
  status: 'ACTIVE' | 'DISABLED';
}

export class CreateStreamingAccountDto {
  @ApiProperty(LOGIN_SCHEMA)
  @SatisfiesRule(checkSubscriptionLogin)
  login: string;

  @ApiProperty({ type: 'string', minLength: 4, description: 'Printable ASCII; stored hashed, never returned' })
  @SatisfiesRule(checkSubscriptionPassword)
  password: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  @SatisfiesRule(checkIsoDateTime)
  expiresAt: string;
}

export class SetStreamingExpiryDto {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'The absolute new expiry' })
  @SatisfiesRule(checkIsoDateTime)
  expiresAt: string;
}

export class ChangeStreamingLoginDto {
  @ApiProperty({ ...LOGIN_SCHEMA, description: 'The new login' })
  @SatisfiesRule(checkSubscriptionLogin)
  login: string;
}

export class ChangeStreamingPasswordDto {
  @ApiProperty({ type: 'string', minLength: 4, description: 'Printable ASCII; stored hashed, never returned' })
  @SatisfiesRule(checkSubscriptionPassword)
  password: string;
}

export class SandboxFaultDto {
  @ApiProperty({ enum: SANDBOX_FAULT_OPERATIONS })
  @IsIn(SANDBOX_FAULT_OPERATIONS)
  operation: SandboxFaultOperation;

  @ApiProperty({ enum: SANDBOX_FAULT_MODES })
  @IsIn(SANDBOX_FAULT_MODES)
  mode: SandboxFaultMode;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: SANDBOX_FAULT_TIMES_MAX, description: 'How many calls fail' })
  @IsInt()
  @Min(1)
  @Max(SANDBOX_FAULT_TIMES_MAX)
  times: number;
}

export class SandboxFaultQueueEntryDto {
  @ApiProperty({ enum: SANDBOX_FAULT_OPERATIONS })
  operation: SandboxFaultOperation;

  @ApiProperty({ enum: SANDBOX_FAULT_MODES })
  mode: SandboxFaultMode;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Calls this fault still fails' })
  remaining: number;
}

export class SandboxFaultQueueDto {
  @ApiProperty({ type: [SandboxFaultQueueEntryDto], description: 'Queued faults, in the order they fire' })
  faults: SandboxFaultQueueEntryDto[];
}
