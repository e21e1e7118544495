import {
  checkPlanDescription,
  checkPlanFeatures,
  checkPlanName,
  checkRequired,
  formatErrorMessage,
  type Language,
  LIMITS,
  parsePlanPriceToMinor,
  PLAN_PRICE_MAX,
  type RuleIssue,
} from '@kupa/proto';

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A typed package price, read with proto's rule for package prices (above zero, at most two decimals, at most
 * 99 999.99), so the form refuses exactly what the API would refuse.
 */
export function checkPriceText(value: unknown): RuleIssue | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const required = checkRequired(text);
  if (required) return required;
  if (!DECIMAL.test(text)) return { error: 'error.validation.invalid.input' };
  const parsed = parsePlanPriceToMinor(Number(text));
  if (parsed.ok) return null;
  return { error: parsed.error, params: { max: PLAN_PRICE_MAX, maxDecimalPlaces: LIMITS.amountDecimalPlaces } };
}

type Validator = (value: unknown) => string | undefined;

/**
 * react-admin validators for the package form, each answering with the catalogue message of the page language: the
 * rules are proto's, shared with the API's request checks.
 */
export function packageValidators(
  lang: Language,
): Record<'name' | 'nameEn' | 'price' | 'description' | 'features' | 'required', Validator> {
  const message = (issue: RuleIssue | null) =>
    issue ? formatErrorMessage(issue.error, lang, issue.params) : undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    name: (value) => message(checkPlanName(text(value))),
    // The English name is optional: blank means none, and English readers then see the Hebrew one.
    nameEn: (value) => message(text(value).trim() === '' ? null : checkPlanName(text(value))),
    price: (value) => message(checkPriceText(value)),
    description: (value) => message(checkPlanDescription(text(value))),
    features: (value) =>
      message(checkPlanFeatures(Array.isArray(value) ? value.map((feature) => String(feature)) : [])),
    required: (value) => message(value === undefined || value === null || value === '' ? checkRequired('') : null),
  };
}
