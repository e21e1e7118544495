import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  type ApiPropertyOptions,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  AMOUNT_MAX,
  type ApiErrorBody,
  ERROR_CODES,
  type ErrorCode,
  type FieldError,
  LIMITS,
  type Page,
  SORTABLE_COLUMNS,
  type SortableResource,
} from '@kupa/proto';

/**
 * The pieces the OpenAPI document (`/api/docs/openapi.json`) is built from that every context shares: the error body,
 * error statuses, pages, ids and amounts. Values come from proto, so the document says what the validators enforce;
 * `openapi-contract.ts` in the test support checks every call the API specs make against the document.
 */

export class FieldErrorDto implements FieldError {
  @ApiProperty({ description: 'The property path (`createdDate.from`, `sorts.0.id`), or a header by name' })
  field: string;

  @ApiProperty({ enum: ERROR_CODES, description: 'A catalogue code (proto/src/errors.ts)' })
  error: ErrorCode;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: "The placeholders of the code's message",
  })
  params?: Record<string, string | number>;
}

/** `{status, error, message, details?}`: the body of every failure (docs/api.md, Errors). */
export class ApiErrorBodyDto implements ApiErrorBody {
  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, example: 409 })
  status: number;

  @ApiProperty({ enum: ERROR_CODES, description: 'A catalogue code (proto/src/errors.ts); the UIs translate it' })
  error: ErrorCode;

  @ApiProperty({ description: "The code's English text" })
  message: string;

  @ApiPropertyOptional({
    type: 'object',
    properties: { fields: { type: 'array', items: { $ref: getSchemaPath(FieldErrorDto) } } },
    additionalProperties: true,
    description: 'Per-field problems of a 400 `error.validation.failed`, or the parameters of the message',
  })
  details?: { fields?: FieldErrorDto[]; [key: string]: unknown };
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 503;

/**
 * What any call can answer, whatever its route: a body over the parser's limit, a body that is not JSON or in an
 * encoding the server does not read, a bug, and a database out of connections or out of reach (ADR 0127).
 */
const ANY_CALL_STATUSES = [413, 415, 500, 503] as const;

const ERROR_DESCRIPTIONS: Record<ErrorStatus | (typeof ANY_CALL_STATUSES)[number], string> = {
  400: 'Malformed request or invalid fields (`error.validation.failed` with per-field details)',
  401: 'No, expired or invalid credentials',
  403: "The caller's role or account state forbids it",
  404: "Missing, or not the caller's to see",
  409: 'A business rule says no, or a conflict',
  429: 'Rate limited; `Retry-After` says when to try again',
  503: 'The database is busy or out of reach for a moment (`error.service.unavailable`, with `Retry-After`), or a provider this call depends on cannot be reached or is not configured',
  413: 'The body is over 100 kB (`error.bad.request`)',
  415: 'The body is not JSON (`error.unsupported.media.type`) or its Content-Encoding is not one the server reads (`error.unsupported.content.encoding`)',
  500: 'A bug, logged on the server (`error.internal.server.error`)',
};

const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds until a retry may pass', schema: { type: 'integer' } },
} as const;

/**
 * The error statuses an operation can answer, each with the one error body; 413, 415, 500 and 503, which any call
 * can answer, are always added.
 */
export const ApiErrors = (...statuses: ErrorStatus[]): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ApiExtraModels(ApiErrorBodyDto, FieldErrorDto),
    ...[...new Set([...statuses, ...ANY_CALL_STATUSES])].map((status) =>
      ApiResponse({
        status,
        description: ERROR_DESCRIPTIONS[status],
        type: ApiErrorBodyDto,
        headers: status === 429 || status === 503 ? RETRY_AFTER_HEADER : undefined,
      }),
    ),
  );

/** A path uuid (users, notes, activity-log entries); a malformed one answers 404 like a missing record. */
export const ApiUuidParam = (name: string, description?: string): MethodDecorator =>
  ApiParam({ name, schema: { type: 'string', format: 'uuid' }, description });

/** A path payment id, a positive integer; a malformed one answers 404 like a missing payment. */
export const ApiPaymentIdParam = (name: string): MethodDecorator =>
  ApiParam({ name, schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } });

/** The schema of a request's dollar amount, from the limits `parseAmountToMinor` enforces. */
export const AMOUNT_SCHEMA = Object.freeze({
  type: 'number' as const,
  minimum: 0,
  exclusiveMinimum: true,
  maximum: AMOUNT_MAX,
  multipleOf: 10 ** -LIMITS.amountDecimalPlaces,
  description: `US dollars: greater than zero, at most ${AMOUNT_MAX}, at most ${LIMITS.amountDecimalPlaces} decimals`,
  example: 12.5,
});

/** A response's signed dollar amount (balances, postings) with at most two decimals. */
export const SignedAmountProperty = (options: ApiPropertyOptions = {}): PropertyDecorator =>
  ApiProperty({ type: 'number', multipleOf: 10 ** -LIMITS.amountDecimalPlaces, ...options } as ApiPropertyOptions);

/** An instant in answers: ISO-8601 UTC with milliseconds. */
export const InstantProperty = (options: ApiPropertyOptions = {}): PropertyDecorator =>
  ApiProperty({ type: 'string', format: 'date-time', ...options } as ApiPropertyOptions);

/** The `sorts` of one resource's search: `{id, desc}` with the ids proto's `SORTABLE_COLUMNS` gives it. */
export function sortsProperty(resource: SortableResource): ApiPropertyOptions {
  return {
    required: false,
    type: 'array',
    maxItems: LIMITS.sortsMaxItems,
    default: [],
    description: 'Applied in order; the default order is newest first',
    items: {
      type: 'object',
      required: ['id', 'desc'],
      properties: { id: { type: 'string', enum: [...SORTABLE_COLUMNS[resource]] }, desc: { type: 'boolean' } },
      additionalProperties: false,
    },
  } as ApiPropertyOptions;
}

const pageClasses = new Map<Type<unknown>, Type<unknown>>();

/** `Page<T>` of an item DTO as its own schema (`PageOfUser`), so each search names what its content holds. */
export function PageOf<T>(item: Type<T>): Type<Page<T>> {
  const known = pageClasses.get(item);
  if (known) return known as Type<Page<T>>;
  class PageDto implements Page<T> {
    @ApiProperty({ type: [item] })
    content: T[];

    @ApiProperty({ type: 'integer', minimum: 0 })
    page: number;

    @ApiProperty({ type: 'integer', minimum: 1, maximum: LIMITS.pageSizeMax })
    size: number;

    @ApiProperty({ type: 'integer', minimum: 0 })
    totalElements: number;

    @ApiProperty({ type: 'integer', minimum: 0 })
    totalPages: number;

    @ApiPropertyOptional({
      type: 'boolean',
      enum: [true],
      description:
        'Present (true) when totalElements is a lower bound: a payments keyword within picked dates counts the ' +
        `range's newest ${LIMITS.keywordDatedCountPayments} payments only, and the range holds more (ADR 0125).`,
    })
    totalIsLowerBound?: true;
  }
  Object.defineProperty(PageDto, 'name', { value: `PageOf${item.name.replace(/(Response)?Dto$/, '')}` });
  pageClasses.set(item, PageDto);
  return PageDto;
}
