import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { checkEmail, checkPersonName, LIMITS, normalizeEmail, PATTERNS } from '@kupa/proto';
import { Transform } from 'class-transformer';
import { IsString, MaxLength } from 'class-validator';
import { OptionalField, SatisfiesRule, Trimmed } from '../../../../platform/http';

/** Confirmation and reset tokens are far shorter; a longer value cannot be one and is refused unread. */
export const ONE_TIME_TOKEN_MAX_LENGTH = 128;

/**
 * E-mail addresses are compared without case and surrounding spaces, so they are stored that way too. Only ASCII is
 * folded (proto's `normalizeEmail`), so that `checkEmail` still sees, and refuses, any other character (ADR 0014).
 */
export const NormalizedEmail = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeEmail(value) : value));

/** What an e-mail field takes as sent: proto's address pattern, with the spaces `normalizeEmail` drops around it. */
const EMAIL_INPUT_PATTERN = `^[ \\t\\r\\n]*${PATTERNS.email.source.replace(/^\^|\$$/g, '')}[ \\t\\r\\n]*$`;

/**
 * An e-mail address a body brings to be stored or looked up by proto's rule. Sign-in checks only its shape, so that it
 * reveals nothing about the rules, and does not use this.
 */
export const EmailField = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({
      pattern: EMAIL_INPUT_PATTERN,
      description: `An e-mail address, at most ${LIMITS.textMaxLength} characters; surrounding spaces are dropped and ASCII letters lowered`,
    }),
    NormalizedEmail(),
    SatisfiesRule(checkEmail),
  );

/** A first or last name: sign-up, staff creation and profile updates hold names to the same rule. */
export const PersonNameField = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ minLength: 1, maxLength: LIMITS.textMaxLength, pattern: PATTERNS.personName.source }),
    Trimmed(),
    SatisfiesRule(checkPersonName),
  );

/**
 * The step-up code of a call that moves the balance or changes how the account signs in
 * (docs/adr/0098-client-two-factor-and-step-up.md): asked for only while two-factor sign-in is on, ignored otherwise.
 */
export const StepUpCodeField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      maxLength: LIMITS.otpMaxLength,
      description: `With two-factor sign-in on: the authenticator's ${LIMITS.totpDigits}-digit code or an unused recovery code`,
    }),
    OptionalField(),
    IsString({ message: 'error.validation.invalid.format' }),
    MaxLength(LIMITS.otpMaxLength, { message: 'error.validation.too.many.symbols' }),
  );
