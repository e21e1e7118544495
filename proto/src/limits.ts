/** Business constants and limits; docs/product.md, Business constants, says what each is for. */
export const LIMITS = Object.freeze({
  /** Free text fields hold fewer than 256 characters. */
  textMaxLength: 255,
  keywordMaxLength: 256,
  /** An admin's broadcast (ADR 0091): a subject line and a body of plain text, in Hebrew and in English. */
  broadcastSubjectMaxLength: 200,
  broadcastBodyMaxLength: 5000,
  passwordMinLength: 8,
  passwordMaxLength: 128,
  subscriptionLoginMinLength: 6,
  subscriptionLoginMaxLength: 64,
  subscriptionPasswordMinLength: 4,
  profileIdDigits: 8,
  amountMaxMinor: 9_999_999,
  amountDecimalPlaces: 2,
  /** Packages (docs/product.md, Catalog): a price above zero and at most 99999.99, like any amount. */
  planPriceMaxMinor: 9_999_999,
  planNameMaxLength: 100,
  planDescriptionMaxLength: 255,
  planFeatureMaxLength: 100,
  planFeaturesMaxItems: 20,
  pageDefault: 0,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /**
   * How far a search counts and pages: beyond it `totalElements` says this many and later
   * pages are empty; narrow the filters or reverse the sort instead (ADR 0010). Exports are not bounded by it.
   */
  searchWindowRows: 10_000,
  /**
   * A keyword search over every client's payments without dates looks only at the payments since the one this many
   * payment numbers back, so that a keyword that matches nothing answers as fast as one that matches (ADR 0115).
   * Dates lift the bound; one client's own rows (their tab, their portal, a whole e-mail address) are not bounded.
   * 25,000 since ADR 0123: the page and the count each walk the bound, and that walk is then within 50 ms at 10 M.
   */
  keywordSearchRecentPayments: 25_000,
  /**
   * A keyword over every client's payments within picked dates counts its matches among the range's newest this many
   * payments only (ADR 0125): when the range holds more and fewer than the search window matched, `totalElements` is
   * a lower bound and `totalIsLowerBound` says so. The count then walks at most this many rows, whatever the range.
   */
  keywordDatedCountPayments: 30_000,
  /**
   * A keyword over every client's payments has at least this many characters, the length the trigram index serves
   * (ADR 0115); a shorter one made of digits is read as a payment number instead.
   */
  keywordMinLength: 3,
  sortsMaxItems: 5,
  filterListMaxItems: 20,
  /** Notes are free text too: under 256 characters. */
  noteMaxLength: 255,
  /** What staff may tell a client beside a payment they booked or changed: free text, under 256 characters. */
  publicNoteMaxLength: 255,
  trialDays: 3,
  /** Days a staff extension or a day voucher adds to a subscription at once (ADR 0089): a whole year at most. */
  extensionMaxDays: 366,
  /** Why days were added: free text the client sees, under 256 characters. */
  extensionReasonMaxLength: 255,
  /** Recurrent subscriptions are charged this many days before their end date (their `nextPaymentDate`). */
  renewalLeadDays: 3,
  confirmationTokenTtlHours: 24,
  passwordResetTokenTtlHours: 1,
  /** The link that confirms a new e-mail address (docs/adr/0100-change-of-e-mail.md). */
  emailChangeTokenTtlHours: 1,
  accessTokenTtlSeconds: 15 * 60,
  toastDurationMs: 4000,
  toastsVisibleMax: 3,
  queryStaleTimeMs: 60_000,
  /** Two-factor sign-in (docs/adr/0018-staff-two-factor-sign-in.md): RFC 6238 defaults every authenticator app reads. */
  totpDigits: 6,
  totpPeriodSeconds: 30,
  /** Codes from one time-step before or after the server's are accepted, for clocks a little apart. */
  totpToleranceSteps: 1,
  recoveryCodeCount: 10,
  /** How long the enrolment token of a staff member the policy sends to enrolment stays valid. */
  twoFactorEnrolmentTtlSeconds: 10 * 60,
  /** A staff member's read-only view of a client's portal (ADR 0092): short, and never refreshed. */
  viewAsTokenTtlSeconds: 15 * 60,
  /** Upper bound of the `otp` field: a six-digit code, or a recovery code with its dashes and spaces. */
  otpMaxLength: 32,
  /** The payments export's `timeZone`: the longest IANA names are about 30 characters. */
  timeZoneMaxLength: 64,
  /**
   * A statement (ADR 0096) covers at most this many days, and at most `statementPostingsMax` postings: the query reads
   * the period whole, with its running balance, in one request and one file, so both are bounded.
   */
  statementPeriodMaxDays: 366,
  statementPostingsMax: 5000,
});

export type Limits = typeof LIMITS;
