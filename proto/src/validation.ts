import type { PaymentPlanTerms } from './catalog-events';
import { CURRENCIES, isOneOf, PLAN_DURATIONS_MONTHS, type PlanDurationMonths } from './enums';
import type { ErrorCode } from './errors';
import { LIMITS } from './limits';

/**
 * The product's validation rules (docs/product.md, Business constants) as data (patterns, limits) and as functions that
 * answer with catalogue codes. The API's DTO decorators and both UIs' forms call these, so a rule changes in one place.
 */
export const PATTERNS = Object.freeze({
  /** Letters, digits and the printable ASCII specials; no spaces. */
  passwordAllowed: /^[A-Za-z0-9!-/:-@[-`{-~]+$/,
  digit: /[0-9]/,
  lowercase: /[a-z]/,
  uppercase: /[A-Z]/,
  special: /[!-/:-@[-`{-~]/,
  subscriptionPassword: /^[\x20-\x7E]{4,}$/,
  subscriptionLogin: /^[a-z0-9._-]{6,64}$/,
  personName: /^[\p{L}'][\p{L}\p{M}'\-., ]*$/u,
  /**
   * The HTML standard's "valid e-mail address" (what `<input type=email>` accepts), made stricter in two ways
   * (docs/adr/0059-edges-refuse-what-they-cannot-read.md): the local part is an RFC 5321 dot-atom (no leading,
   * trailing or doubled dot, which the HTML grammar lets through), and the domain has at least two labels, since we
   * mail every address. Only the HTML grammar's atext characters may stand before the @, so nothing a mail library
   * reads as an address list or a display name (`<`, `"`, `,`, spaces) can redirect the mail. ASCII only, so that no
   * invisible, bidi or look-alike character can hide in an address (ADR 0014); internationalised domains are accepted
   * in their punycode (`xn--`) form. No alternative at the top level: `dto-fields.ts` embeds the source.
   */
  email:
    /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/,
  /** A UUID as we write them: lower-case hexadecimal in the 8-4-4-4-12 layout. */
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  /**
   * A calendar day (`2026-05-03`) or an instant with its offset (`2026-05-03T10:00Z`, `…T10:00:00.123+03:00`):
   * ISO 8601's extended form only. An instant without an offset is refused, as it would be read in the server's zone.
   */
  isoDateTime: /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/,
  profileId: /^\d{8}$/,
  numeric: /^\d+$/,
  /**
   * An IANA time zone as browsers report it (`Asia/Jerusalem`, `America/Argentina/Buenos_Aires`, `Etc/GMT-3`) or
   * `UTC`. Abbreviations and POSIX rules (`IST`, `EST5EDT`) are refused: they are ambiguous or read backwards.
   */
  timeZone: /^(?:UTC|[A-Z][A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){1,2})$/,
});

export interface RuleIssue {
  error: ErrorCode;
  params?: Record<string, string | number>;
}

type Check = (value: string) => RuleIssue | null;

const ok = null;

export const checkRequired: Check = (value) =>
  value === undefined || value === null || String(value).trim() === '' ? { error: 'error.validation.required' } : ok;

export const checkTextLength: Check = (value) =>
  value.length > LIMITS.textMaxLength
    ? { error: 'error.validation.max.length', params: { max: LIMITS.textMaxLength } }
    : ok;

/**
 * How an e-mail address is compared and stored: without surrounding ASCII spaces, ASCII letters in lower case.
 * Only ASCII is touched, so that a non-ASCII character (which `checkEmail` refuses) is never folded into an ASCII
 * one first: `toLowerCase()` turns the Kelvin sign into `k`, and `trim()` drops a byte-order mark.
 */
export function normalizeEmail(value: string): string {
  return value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '').replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** RFC 5321's limit on the part before the @ (section 4.5.3.1.1); mail servers may refuse longer ones. */
const EMAIL_LOCAL_PART_MAX_LENGTH = 64;

export const checkEmail: Check = (value) =>
  PATTERNS.email.test(value) &&
  value.length <= LIMITS.textMaxLength &&
  value.indexOf('@') <= EMAIL_LOCAL_PART_MAX_LENGTH
    ? ok
    : { error: 'error.validation.invalid.email' };

/**
 * A new password's characters as one pattern: only the allowed ones, with at least one of each class. The API's
 * document carries it (with the length limits), and `checkPassword` tests it, so both say the same rule.
 */
export const PASSWORD_PATTERN = new RegExp(
  `^${[PATTERNS.digit, PATTERNS.lowercase, PATTERNS.uppercase, PATTERNS.special]
    .map((required) => `(?=.*${required.source})`)
    .join('')}${PATTERNS.passwordAllowed.source.slice(1)}`,
);

export const checkPassword: Check = (value) => {
  const valid =
    value.length >= LIMITS.passwordMinLength &&
    value.length <= LIMITS.passwordMaxLength &&
    PASSWORD_PATTERN.test(value);
  return valid ? ok : { error: 'error.validation.password.rules', params: { length: LIMITS.passwordMinLength } };
};

export const checkPersonName: Check = (value) => {
  if (value.trim() === '') return { error: 'error.validation.blank' };
  if (value.length > LIMITS.textMaxLength)
    return { error: 'error.validation.max.length', params: { max: LIMITS.textMaxLength } };
  return PATTERNS.personName.test(value) ? ok : { error: 'error.validation.person.name' };
};

export const checkSubscriptionLogin: Check = (value) =>
  PATTERNS.subscriptionLogin.test(value) ? ok : { error: 'error.validation.subscription.login' };

export const checkSubscriptionPassword: Check = (value) =>
  PATTERNS.subscriptionPassword.test(value) && value.length <= LIMITS.textMaxLength
    ? ok
    : { error: 'error.validation.subscription.password' };

export const checkProfileId: Check = (value) =>
  PATTERNS.profileId.test(value) ? ok : { error: 'error.validation.invalid.format' };

export const checkReferralToken: Check = (value) =>
  PATTERNS.numeric.test(value) && value.length <= LIMITS.profileIdDigits
    ? ok
    : { error: 'error.validation.ref.numeric' };

/** A transfer's recipient, an 8-digit profile ID or an e-mail address, as one pattern for the API's document. */
export const RECIPIENT_PATTERN = new RegExp(`(?:${PATTERNS.profileId.source})|(?:${PATTERNS.email.source})`);

/** A transfer recipient is an 8-digit profile ID or an address `checkEmail` takes (its length limits included). */
export const checkRecipient: Check = (value) =>
  PATTERNS.profileId.test(value) || checkEmail(value) === ok ? ok : { error: 'error.validation.invalid.recipient' };

/**
 * A text's length as people count characters: code points, so an emoji or a rare Hebrew letter outside the basic
 * plane is one character. JSON Schema's `maxLength` counts the same way, so the API's document and its checks agree.
 */
export function textLength(value: string): number {
  return [...value].length;
}

/** Free text that must say something and stay within `max` characters once its surrounding spaces are dropped. */
function boundedText(max: number): Check {
  return (value) => {
    const trimmed = value.trim();
    if (trimmed === '') return { error: 'error.validation.blank' };
    return textLength(trimmed) > max ? { error: 'error.validation.max.length', params: { max } } : ok;
  };
}

/** A staff note about a user: refused, never cut, when it is too long. */
export const checkNoteText: Check = boundedText(LIMITS.noteMaxLength);

/** The note staff may add for the client to a payment they book or whose status they change. */
export const checkPublicNote: Check = boundedText(LIMITS.publicNoteMaxLength);

/** Why staff add days to a subscription: shown to its owner, so it must say something. */
export const checkExtensionReason: Check = boundedText(LIMITS.extensionReasonMaxLength);

/** Days added to a subscription at once: a whole number from 1 to `LIMITS.extensionMaxDays`. */
export function checkExtensionDays(days: number): RuleIssue | null {
  if (!Number.isInteger(days)) return { error: 'error.validation.integer' };
  if (days < 1) return { error: 'error.validation.min', params: { min: 1 } };
  return days > LIMITS.extensionMaxDays
    ? { error: 'error.validation.max', params: { max: LIMITS.extensionMaxDays } }
    : ok;
}

/** An admin's broadcast (ADR 0091): a subject and a body in each language, each saying something. */
export const checkBroadcastSubject: Check = boundedText(LIMITS.broadcastSubjectMaxLength);
export const checkBroadcastBody: Check = boundedText(LIMITS.broadcastBodyMaxLength);

export const checkKeyword: Check = (value) =>
  value.length > LIMITS.keywordMaxLength
    ? { error: 'error.validation.max.length', params: { max: LIMITS.keywordMaxLength } }
    : ok;

export const checkTimeZone: Check = (value) =>
  PATTERNS.timeZone.test(value) && value.length <= LIMITS.timeZoneMaxLength
    ? ok
    : { error: 'error.validation.invalid.format' };

export const checkUuid: Check = (value) =>
  PATTERNS.uuid.test(value) ? ok : { error: 'error.validation.invalid.format' };

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A date filter or an instant: `PATTERNS.isoDateTime`, naming a day that exists (no 2026-02-30) and a real time. */
export const checkIsoDateTime: Check = (value) => {
  const parts = PATTERNS.isoDateTime.exec(value);
  if (!parts) return { error: 'error.validation.invalid.format' };
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = parts
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part)));
  const valid =
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 14 &&
    offsetMinutes <= 59;
  return valid ? ok : { error: 'error.validation.invalid.format' };
};

/** A package's name: surrounding spaces do not count; not blank, at most `LIMITS.planNameMaxLength` characters. */
export const checkPlanName: Check = (value) => {
  const name = value.trim();
  if (name === '') return { error: 'error.validation.blank' };
  return name.length > LIMITS.planNameMaxLength
    ? { error: 'error.validation.max.length', params: { max: LIMITS.planNameMaxLength } }
    : ok;
};

/** A package's description may be empty; at most `LIMITS.planDescriptionMaxLength` characters once trimmed. */
export const checkPlanDescription: Check = (value) =>
  value.trim().length > LIMITS.planDescriptionMaxLength
    ? { error: 'error.validation.max.length', params: { max: LIMITS.planDescriptionMaxLength } }
    : ok;

/** One line of a package's feature list: not blank, at most `LIMITS.planFeatureMaxLength` characters once trimmed. */
export const checkPlanFeature: Check = (value) => {
  const feature = value.trim();
  if (feature === '') return { error: 'error.validation.blank' };
  return feature.length > LIMITS.planFeatureMaxLength
    ? { error: 'error.validation.max.length', params: { max: LIMITS.planFeatureMaxLength } }
    : ok;
};

export function checkPlanFeatures(features: readonly string[]): RuleIssue | null {
  if (features.length > LIMITS.planFeaturesMaxItems)
    return { error: 'error.validation.max.items', params: { maxItems: LIMITS.planFeaturesMaxItems } };
  for (const feature of features) {
    const issue = checkPlanFeature(feature);
    if (issue) return issue;
  }
  return ok;
}

export function isPlanDuration(value: unknown): value is PlanDurationMonths {
  return typeof value === 'number' && (PLAN_DURATIONS_MONTHS as readonly number[]).includes(value);
}

/** A price in cents a package may have: a whole number above zero, at most `LIMITS.planPriceMaxMinor`. */
export function checkPlanPriceMinor(priceMinor: number): RuleIssue | null {
  if (!Number.isSafeInteger(priceMinor)) return { error: 'error.validation.integer' };
  if (priceMinor <= 0) return { error: 'error.validation.must.be.positive' };
  return priceMinor > LIMITS.planPriceMaxMinor
    ? { error: 'error.validation.max', params: { max: LIMITS.planPriceMaxMinor / 100 } }
    : ok;
}

/**
 * Every rule a package's terms keep, with the field the first broken one is about: the catalog's decider holds
 * every plan to it, whichever way the terms arrived.
 */
export function checkPlanTerms(terms: PaymentPlanTerms): (RuleIssue & { field: keyof PaymentPlanTerms }) | null {
  const issues: Array<[keyof PaymentPlanTerms, RuleIssue | null]> = [
    ['name', checkPlanName(terms.name)],
    ['durationInMonths', isPlanDuration(terms.durationInMonths) ? ok : { error: 'error.validation.invalid.field' }],
    ['priceMinor', checkPlanPriceMinor(terms.priceMinor)],
    ['currency', isOneOf(CURRENCIES, terms.currency) ? ok : { error: 'error.validation.invalid.currency' }],
    ['description', checkPlanDescription(terms.description)],
    ['nameEn', terms.nameEn === '' ? ok : checkPlanName(terms.nameEn)],
    ['descriptionEn', checkPlanDescription(terms.descriptionEn)],
    ['features', checkPlanFeatures(terms.features)],
  ];
  for (const [field, issue] of issues) if (issue) return { field, ...issue };
  return ok;
}

export function checkPasswordConfirmation(password: string, confirmPassword: string): RuleIssue | null {
  return password === confirmPassword ? ok : { error: 'error.validation.passwords.do.not.match' };
}

export function checkNewPasswordDiffers(oldPassword: string, newPassword: string): RuleIssue | null {
  return oldPassword === newPassword ? { error: 'error.validation.password.same.as.old' } : ok;
}

/** Runs checks in order and answers with the first problem. */
export function firstIssue(value: string, ...checks: Check[]): RuleIssue | null {
  for (const check of checks) {
    const issue = check(value);
    if (issue) return issue;
  }
  return ok;
}
