import {
  checkUuid,
  type ErrorCode,
  type FieldError,
  type RuleIssue,
  isErrorCode,
  LIMITS,
  parseAmountTextToMinor,
  parseAmountToMinor,
} from '@kupa/proto';
import {
  type ArgumentMetadata,
  applyDecorators,
  type PipeTransform,
  ValidationPipe,
  type ValidationError,
} from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';
import { ApiError, ValidationFailedError } from './api-error';
import { AMOUNT_FIELD_NAMES } from './exact-amounts';
import { unsafeInputFields } from './input-guards';

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

/** The constraint of `OptionalField`; a null refused names it rather than the type rules null also breaks. */
const NOT_NULL = 'isNotNull';
/** The constraint of a field no DTO declares. */
const WHITELIST = 'whitelistValidation';

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    if (constraints.length > 0 && error.value === undefined && !(WHITELIST in (error.constraints ?? {}))) {
      // A field left out breaks every rule it has (a string, at most 200 long…): the first of them would name a rule
      // the caller never got to, so a missing field is named as missing.
      result.push({ field: path, error: 'error.validation.required' });
    } else if (constraints.length > 0) {
      const [constraint, message] = constraints.find(([name]) => name === NOT_NULL) ?? constraints[0];
      result.push(toFieldError(path, constraint, message));
    }
    if (error.children && error.children.length > 0) result.push(...flattenValidationErrors(error.children, path));
  }
  return result;
}

/**
 * Bodies and query strings are first searched for what no DTO rule sees (`unsafeInputFields`): text PostgreSQL
 * cannot store and keys naming inherited object members. As a pipe this runs after the guards, like the DTO rules.
 * Path parameters reach their route's own pipe as the text they arrived as: the base pipe would turn a `number`
 * parameter written `0x1`, ` 1` or `1e0` into 1 before the route's pipe could refuse the spelling.
 */
class KupaValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return value;
    if (metadata.type === 'body' || metadata.type === 'query') {
      const fields = unsafeInputFields(value, metadata.data ?? '');
      if (fields.length > 0) throw new ValidationFailedError(fields);
    }
    return super.transform(value, metadata);
  }
}

/**
 * The one validation pipe: unknown fields are refused, payloads are transformed into their DTO classes, and
 * failures become a 400 with per-field catalogue codes.
 */
export function createValidationPipe(): ValidationPipe {
  return new KupaValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The value is kept only to tell a missing field from a wrong one; error bodies never echo it.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}

/**
 * A body field one kind of request needs and another may leave out: checked whenever it is sent or `needed` says the
 * request needs it, and, as an `OptionalField`, never accepted as null (400 `error.validation.not.nullable`).
 */
export const FieldNeededWhen = <T extends object>(needed: (dto: T) => boolean): PropertyDecorator =>
  applyDecorators(
    ValidateIf((dto: T, value: unknown) => value !== undefined || needed(dto)),
    ValidateBy({
      name: NOT_NULL,
      validator: {
        validate: (value: unknown) => value !== null,
        defaultMessage: () => codeMessage('error.validation.not.nullable'),
      },
    }),
  );

/**
 * An optional body field: it may be left out, but not sent as null (400 `error.validation.not.nullable`), so that
 * the document, which does not call it nullable, says what the server does. class-validator's `IsOptional` skips
 * null as well, and a null would then read as absent (a package's `cardPaymentAllowed: null` became true). A field
 * whose null means something keeps `IsOptional` and says `nullable: true` in its schema.
 */
export const OptionalField = (): PropertyDecorator => FieldNeededWhen(() => false);

/**
 * Text keeps its inner spelling but loses accidental surrounding spaces, each line of a list of text too; the rules
 * then count what remains.
 */
export const Trimmed = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value === 'string') return value.trim();
    if (Array.isArray(value)) return value.map((item: unknown) => (typeof item === 'string' ? item.trim() : item));
    return value;
  });

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
        // With `each`, class-validator hands the whole list to the message: name the first line that breaks the rule.
        defaultMessage: (args) => {
          const values: unknown[] = Array.isArray(args?.value) ? args.value : [args?.value];
          for (const value of values) {
            if (typeof value !== 'string') return codeMessage('error.validation.invalid.input');
            const issue = check(value);
            if (issue) return codeMessage(issue.error, issue.params);
          }
          return codeMessage('error.validation.invalid.input');
        },
      },
    },
    options,
  );
}

/**
 * A path id in its one canonical form, for `@Param(name, CanonicalUuidPipe(code))`. A UUID in any other spelling
 * (upper case, braces, no hyphens, surrounding spaces) names no record, so it answers `notFound` (a 404), as a
 * missing record does; nothing else reaches the uuid columns.
 */
export function CanonicalUuidPipe(notFound: ErrorCode): PipeTransform<string, string> {
  return {
    transform: (value: string) => {
      if (typeof value !== 'string' || checkUuid(value) !== null) throw new ApiError(notFound);
      return value;
    },
  };
}

/**
 * A dollar amount: a JSON number, positive, at most two decimals, at most 99999.99 (docs/api.md, Basics). `rule`
 * admits zero (a filter's lower bound) or lowers the upper bound for amounts with a limit of their own.
 */
export function IsAmount(
  options?: ValidationOptions,
  rule: { allowZero?: boolean; maxMinor?: number } = {},
): PropertyDecorator {
  const maxAmount = Math.min(rule.maxMinor ?? LIMITS.amountMaxMinor, LIMITS.amountMaxMinor) / 100;
  // A JSON number is checked as parsed; its source text, when it was not exact dollars and cents, arrives as a string
  // (`restoreInexactAmounts`) and is refused by what it says. A string is never an amount, even a well-written one.
  const check = (value: unknown) => {
    if (typeof value !== 'string') return parseAmountToMinor(value, rule);
    const written = parseAmountTextToMinor(value, rule);
    return written.ok ? ({ ok: false, error: 'error.validation.invalid.input' } as const) : written;
  };
  const decorator = ValidateBy(
    {
      name: 'isAmount',
      validator: {
        validate: (value: unknown) => check(value).ok,
        defaultMessage: (args) => {
          const checked = check(args?.value);
          if (checked.ok) return codeMessage('error.validation.invalid.input');
          if (checked.error === 'error.validation.max') return codeMessage(checked.error, { max: maxAmount });
          if (checked.error === 'error.validation.max.decimal.places')
            return codeMessage(checked.error, { maxDecimalPlaces: LIMITS.amountDecimalPlaces });
          return codeMessage(checked.error);
        },
      },
    },
    options,
  );
  return (target, propertyKey) => {
    AMOUNT_FIELD_NAMES.add(String(propertyKey));
    decorator(target, propertyKey);
  };
}
