import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  type ConfirmationResponse,
  type EmailChangeResponse,
  type Language,
  LANGUAGES,
  type Note,
  PATTERNS,
  type ReferralSummary,
  type RefreshResponse,
  type SignInResponse,
  type TwoFactorActivation,
  type TwoFactorEnrolment,
  type User,
  type UserReferrer,
  type UserTelegram,
  type UserRole,
  USER_ROLES,
  type UserStatus,
  USER_STATUSES,
} from '@kupa/proto';
import { InstantProperty, PageOf, SignedAmountProperty } from '../../../../platform/http';

/** The identity answers as OpenAPI schemas; the shapes themselves are proto's payload types, which these implement. */

const PROFILE_ID = { type: 'string', pattern: PATTERNS.profileId.source, example: '12345678' } as const;

export class ReferralSummaryDto implements ReferralSummary {
  @ApiProperty(PROFILE_ID)
  profileId: string;

  @ApiProperty({ format: 'uri', description: 'The sign-up link that carries the profile ID' })
  link: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  totalReferrals: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  activeReferrals: number;

  @ApiProperty({ minimum: 0, maximum: 100 })
  discountPercent: number;
}

export class UserReferrerDto implements UserReferrer {
  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty(PROFILE_ID)
  profileId: string;

  @ApiProperty()
  fullName: string;

  @ApiProperty({ format: 'email' })
  email: string;
}

export class UserTelegramDto implements UserTelegram {
  @ApiProperty()
  linked: boolean;

  @InstantProperty({ nullable: true })
  linkedAt: string | null;

  @InstantProperty({ nullable: true, description: 'Since when the bot is blocked in the chat (Telegram answered 403)' })
  blockedAt: string | null;
}

export class UserDto implements User {
  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty()
  firstName: string;

  @ApiProperty()
  lastName: string;

  @ApiProperty()
  fullName: string;

  @ApiProperty({ enum: USER_ROLES })
  role: UserRole;

  @ApiProperty({ enum: USER_STATUSES })
  status: UserStatus;

  @SignedAmountProperty({ description: 'US dollars' })
  balance: number;

  @ApiProperty(PROFILE_ID)
  profileId: string;

  @InstantProperty()
  userCreatedAt: string;

  @ApiProperty()
  trialUsed: boolean;

  @ApiProperty()
  trialRejected: boolean;

  @ApiProperty({ enum: LANGUAGES })
  language: Language;

  @ApiProperty({ description: 'Staff only: two-factor sign-in is active' })
  twoFactorEnabled: boolean;

  @ApiProperty({ type: ReferralSummaryDto })
  referrals: ReferralSummaryDto;

  @ApiPropertyOptional({
    type: UserReferrerDto,
    nullable: true,
    description: 'Staff answers only: the account whose referral link this one signed up with; null when none',
  })
  referrer?: UserReferrerDto | null;

  @ApiPropertyOptional({
    type: UserTelegramDto,
    description: 'Staff answers of GET /users/{uuid} only: whether Telegram is linked and the bot blocked; no chat id',
  })
  telegram?: UserTelegramDto;
}

export const UserPageDto = PageOf(UserDto);

export class NoteAuthorDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;
}

export class NoteDto implements Note {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty()
  text: string;

  @InstantProperty()
  createdAt: string;

  @ApiProperty({ type: NoteAuthorDto })
  createdBy: NoteAuthorDto;
}

export class SignInResponseDto implements SignInResponse {
  @ApiProperty({ description: 'A JWT for `Authorization: Bearer`, valid for 15 minutes' })
  accessToken: string;

  @ApiProperty({ format: 'uuid' })
  userUuid: string;

  @ApiProperty({ format: 'email' })
  email: string;

  @ApiProperty({ enum: USER_ROLES })
  userRole: UserRole;
}

export class RefreshResponseDto implements RefreshResponse {
  @ApiProperty({ description: 'A new JWT for `Authorization: Bearer`' })
  accessToken: string;
}

export class ConfirmationResponseDto implements ConfirmationResponse {
  @ApiProperty({ enum: USER_STATUSES })
  status: UserStatus;
}

export class EmailChangeResponseDto implements EmailChangeResponse {
  @ApiProperty({ description: 'The address the account signs in with from now on' })
  email: string;
}

export class TwoFactorEnrolmentDto implements TwoFactorEnrolment {
  @ApiProperty({ description: 'Base32, for typing into an authenticator by hand' })
  secret: string;

  @ApiProperty({ example: 'otpauth://totp/Kupa:admin%40kupa.local?secret=…&issuer=Kupa' })
  otpauthUri: string;

  @ApiProperty({ description: 'A PNG data: URL of the QR code of otpauthUri' })
  qrDataUrl: string;
}

export class TwoFactorActivationDto implements TwoFactorActivation {
  @ApiProperty({ type: [String], description: 'Shown once; the server keeps only their hashes' })
  recoveryCodes: string[];
}
