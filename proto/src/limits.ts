/** Business constants and limits; docs/product.md, Business constants, says what each is for. */
export const LIMITS = Object.freeze({
  /** Free text fields hold fewer than 256 characters. */
  textMaxLength: 255,
  keywordMaxLength: 256,
  passwordMinLength: 8,
  passwordMaxLength: 128,
  subscriptionLoginMinLength: 6,
  subscriptionLoginMaxLength: 64,
  subscriptionPasswordMinLength: 4,
  profileIdDigits: 8,
  amountMaxMinor: 9_999_999,
  amountDecimalPlaces: 2,
  pageDefault: 0,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /**
   * How far a search counts and pages: beyond it `totalElements` says this many and later
   * pages are empty; narrow the filters or reverse the sort instead (ADR 0010). Exports are not bounded by it.
   */
  searchWindowRows: 10_000,
  sortsMaxItems: 5,
  filterListMaxItems: 20,
  /** Notes are free text too: under 256 characters. */
  noteMaxLength: 255,
  trialDays: 3,
  confirmationTokenTtlHours: 24,
  passwordResetTokenTtlHours: 1,
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlDays: 30,
  toastDurationMs: 4000,
  toastsVisibleMax: 3,
  queryStaleTimeMs: 60_000,
});

export type Limits = typeof LIMITS;
