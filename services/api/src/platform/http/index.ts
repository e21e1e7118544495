export { ApiError, ValidationFailedError } from './api-error';
export { ApiErrorFilter } from './api-error.filter';
export { BodilessRouteInterceptor, TakesBody } from './bodiless-routes';
export { PlatformHttpModule } from './http.module';
export { codeMessage, createValidationPipe, flattenValidationErrors, IsAmount, SatisfiesRule } from './validation';
export { DateRangeDto, orderByFromSorts, SearchRequestDto, SortDto, toPage } from './search.dto';
export {
  RateLimit,
  RateLimitInterceptor,
  type RateLimitRule,
  type RateLimitRules,
  RateLimitWindows,
} from './rate-limit';
