import {
  AMOUNT_MAX,
  type ErrorCode,
  type FieldError,
  type RuleIssue,
  isErrorCode,
  parseAmountToMinor,
} from '@kupa/proto';
import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { ValidationFailedError } from './api-error';

/**
 * class-validator messages carry a catalogue code, optionally followed by `|` and JSON parameters, so that the
 * error body names a code the UIs translate (never English prose from the validator).
 */
export function codeMessage(code: ErrorCode, params?: Record<string, string | number>): string {
  return params ? `${code}|${JSON.stringify(params)}` : code;
}

/** class-validator constraint names mapped to catalogue codes when a decorator did not name one. */
const CODE_BY_CONSTRAINT: Record<string, ErrorCode> = {
  whitelistValidation: 'error.validation.unknown.field',
  isNotEmpty: 'error.validation.required',
  isDefined: 'error.validation.required',
  isString: 'error.validation.invalid.input',
  isBoolean: 'error.validation.invalid.input',
  isNumber: 'error.validation.invalid.input',
  isInt: 'error.validation.integer',
  isArray: 'error.validation.invalid.input',
  isEnum: 'error.validation.invalid.field',
  isIn: 'error.validation.invalid.field',
  isEmail: 'error.validation.invalid.email',
  isUUID: 'error.validation.invalid.format',
  isDateString: 'error.validation.invalid.format',
  isISO8601: 'error.validation.invalid.format',
  maxLength: 'error.validation.max.length',
  minLength: 'error.validation.min.length',
  max: 'error.validation.max',
  min: 'error.validation.min',
  arrayMaxSize: 'error.validation.max.items',
  nestedValidation: 'error.validation.invalid.input',
  equals: 'error.validation.invalid.field',
};

function toFieldError(path: string, constraint: string, message: string): FieldError {
  const [head, json] = message.split('|', 2);
  if (isErrorCode(head)) {
    return json
      ? { field: path, error: head, params: JSON.parse(json) as Record<string, string | number> }
      : { field: path, error: head };
  }
  return { field: path, error: CODE_BY_CONSTRAINT[constraint] ?? 'error.validation.invalid.input' };
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0) {
      const [constraint, message] = constraints[0];
      result.push(toFieldError(path, constraint, message));
    }
    if (error.children && error.children.length > 0) result.push(...flattenValidationErrors(error.children, path));
  }
  return result;
}

/**
 * The one validation pipe: unknown fields are refused, payloads are transformed into their DTO classes, and
 * failures become a 400 with per-field catalogue codes.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}

/** A DTO property validated by one of proto's rule functions (the product's rules live once, in proto). */
export function SatisfiesRule(
  check: (value: string) => RuleIssue | null,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'satisfiesRule',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && check(value) === null,
        defaultMessage: (args) => {
          if (typeof args?.value !== 'string') return codeMessage('error.validation.invalid.input');
          const issue = check(args.value);
          return issue ? codeMessage(issue.error, issue.params) : codeMessage('error.validation.invalid.input');
        },
      },
    },
    options,
  );
}

/** A dollar amount: a JSON number, positive, at most two decimals, at most 99999.99 (docs/api.md, Basics). */
export function IsAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isAmount',
      validator: {
        validate: (value: unknown) => parseAmountToMinor(value).ok,
        defaultMessage: (args) => {
          const check = parseAmountToMinor(args?.value);
          if (check.ok) return codeMessage('error.validation.invalid.input');
          if (check.error === 'error.validation.max') return codeMessage(check.error, { max: AMOUNT_MAX });
          if (check.error === 'error.validation.max.decimal.places')
            return codeMessage(check.error, { maxDecimalPlaces: 2 });
          return codeMessage(check.error);
        },
      },
    },
    options,
  );
}
