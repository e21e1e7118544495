import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { checkPassword, LIMITS, PASSWORD_PATTERN, type RuleIssue } from '@kupa/proto';
import { ValidateBy } from 'class-validator';
import { codeMessage, SatisfiesRule } from '../../../../platform/http';

/**
 * A password being chosen (sign-up, staff creation, a reset or a change), held to proto's password rule. Sign-in
 * checks only the shape of the password it is given and does not use this.
 */
export const NewPasswordField = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({
      minLength: LIMITS.passwordMinLength,
      maxLength: LIMITS.passwordMaxLength,
      pattern: PASSWORD_PATTERN.source,
      description:
        'Letters, digits and printable ASCII specials, with at least one digit, lowercase, uppercase and special ' +
        '(`error.validation.password.rules` otherwise)',
    }),
    SatisfiesRule(checkPassword),
  );

/**
 * A property checked against another property of the same body with one of proto's two-value rules (confirmation
 * matches, new password differs from the old), answering with the rule's catalogue code.
 */
export function ComparedWith(
  otherField: string,
  rule: (other: string, value: string) => RuleIssue | null,
): PropertyDecorator {
  const run = (value: unknown, object: object): RuleIssue | null => {
    const other = (object as Record<string, unknown>)[otherField];
    if (typeof value !== 'string') return { error: 'error.validation.invalid.input' };
    if (typeof other !== 'string') return null;
    return rule(other, value);
  };
  return ValidateBy({
    name: 'comparedWith',
    validator: {
      validate: (value, args) => run(value, args?.object ?? {}) === null,
      defaultMessage: (args) => {
        const issue = run(args?.value, args?.object ?? {});
        return codeMessage(issue?.error ?? 'error.validation.invalid.input', issue?.params);
      },
    },
  });
}
