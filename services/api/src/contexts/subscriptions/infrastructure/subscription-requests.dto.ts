import { ApiProperty } from '@nestjs/swagger';
import {
  type BuySubscriptionRequest,
  type ChangeSubscriptionLoginRequest,
  type ChangeSubscriptionPasswordRequest,
  checkSubscriptionLogin,
  checkSubscriptionPassword,
  LIMITS,
  PATTERNS,
} from '@kupa/proto';
import { SatisfiesRule } from '../../../platform/http';

const LOGIN_SCHEMA = {
  minLength: LIMITS.subscriptionLoginMinLength,
  maxLength: LIMITS.subscriptionLoginMaxLength,
  pattern: PATTERNS.subscriptionLogin.source,
  description: 'The login at the streaming service: 6–64 of a-z, 0-9, dot, underscore, hyphen',
} as const;

const PASSWORD_SCHEMA = {
  minLength: LIMITS.subscriptionPasswordMinLength,
  maxLength: LIMITS.textMaxLength,
  pattern: PATTERNS.subscriptionPassword.source,
  description: 'The password at the streaming service: printable ASCII; never returned',
  writeOnly: true,
} as const;

/** The streaming-service login and password of a new subscription or trial. */
export class LoginAndPasswordDto implements BuySubscriptionRequest {
  @ApiProperty(LOGIN_SCHEMA)
  @SatisfiesRule(checkSubscriptionLogin)
  login: string;

  @ApiProperty(PASSWORD_SCHEMA)
  @SatisfiesRule(checkSubscriptionPassword)
  password: string;
}

export class ChangeSubscriptionLoginRequestDto implements ChangeSubscriptionLoginRequest {
  @ApiProperty(LOGIN_SCHEMA)
  @SatisfiesRule(checkSubscriptionLogin)
  login: string;
}

export class ChangeSubscriptionPasswordRequestDto implements ChangeSubscriptionPasswordRequest {
  @ApiProperty(PASSWORD_SCHEMA)
  @SatisfiesRule(checkSubscriptionPassword)
  password: string;
}
