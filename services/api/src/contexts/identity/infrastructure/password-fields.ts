import type { RuleIssue } from '@kupa/proto';
import { ValidateBy } from 'class-validator';
import { codeMessage } from '../../../platform/http';

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
