export { ApiError, ValidationFailedError } from './api-error';
export { ApiErrorFilter } from './api-error.filter';
export { BodilessRouteInterceptor, TakesBody } from './bodiless-routes';
export { PlatformHttpModule } from './http.module';
export { acceptedLanguage } from './request-language';
export { JSON_BODY_LIMIT, JSON_DEPTH_MAX, useJsonBodyParser } from './input-guards';
export {
  CanonicalUuidPipe,
  FieldNeededWhen,
  codeMessage,
  createValidationPipe,
  flattenValidationErrors,
  IsAmount,
  OptionalField,
  SatisfiesRule,
  Trimmed,
} from './validation';
export {
  DateRangeDto,
  IsoDateTimeField,
  orderByFromSorts,
  PAGE_MAX,
  PageRequestDto,
  SearchRequestDto,
  type SortColumnSql,
  SortDto,
  toPage,
} from './search.dto';
export { RateLimit, RateLimitInterceptor, type RateLimitRule, type RateLimitRules } from './rate-limit';
export { RateLimitWindows } from './rate-limit-windows';
export {
  AMOUNT_SCHEMA,
  ApiErrorBodyDto,
  ApiErrors,
  ApiPaymentIdParam,
  ApiUuidParam,
  type ErrorStatus,
  FieldErrorDto,
  InstantProperty,
  PageOf,
  SignedAmountProperty,
  sortsProperty,
} from './openapi';
export { tightenOpenApiDocument } from './openapi-document';
export { staticUi } from './static-ui';
