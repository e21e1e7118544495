import type { PlanRequest, SignUpRequest } from '@kupa/proto';

/**
 * The embedded demo's packages: what a streaming reseller sells, in Hebrew with English beside it (one without an
 * English description, so the fallback shows). Durations are the product's (1, 2, 3 and 12 months); the longer ones
 * cost less a month, and the two-month one is sold once, without renewal. The first is `DemoSeed`'s marker of a
 * seeded database only through the catalogue being non-empty.
 */
export const DEMO_CATALOGUE: readonly PlanRequest[] = Object.freeze([
  {
    name: 'בסיסית חודשית',
    nameEn: 'Basic Monthly',
    durationInMonths: 1,
    price: 12.9,
    currency: 'USD',
    isRecurrent: true,
    description: 'כל הערוצים באיכות HD על מסך אחד',
    descriptionEn: 'Every channel in HD on one screen',
    features: ['HD', '1 screen', 'Live sport'],
    status: 'ACTIVE',
  },
  {
    name: 'משפחתית רבעונית',
    nameEn: 'Family Quarterly',
    durationInMonths: 3,
    price: 34.9,
    currency: 'USD',
    isRecurrent: true,
    description: 'ארבעה מסכים בבת אחת, ערוצי ילדים וסרטים',
    descriptionEn: 'Four screens at once, kids and movie channels',
    features: ['Full HD', '4 screens', 'Kids channels', 'Movies'],
    status: 'ACTIVE',
  },
  {
    name: 'ספורט לחודשיים',
    nameEn: 'Sport Two Months',
    durationInMonths: 2,
    price: 24.9,
    currency: 'USD',
    isRecurrent: false,
    description: 'כל ליגות הכדורגל והכדורסל, ללא חידוש אוטומטי',
    features: ['Full HD', '2 screens', 'All leagues'],
    status: 'ACTIVE',
  },
  {
    name: 'פרימיום שנתית',
    nameEn: 'Premium Yearly',
    durationInMonths: 12,
    price: 119,
    currency: 'USD',
    isRecurrent: true,
    description: 'הכול ב־4K על חמישה מסכים, חודשיים מתנה לעומת החודשית',
    descriptionEn: 'Everything in 4K on five screens, two months free against monthly',
    features: ['4K', '5 screens', 'Live sport', 'Movies', 'Catch-up 7 days'],
    status: 'ACTIVE',
  },
  {
    name: 'בסיסית חודשית (ישנה)',
    nameEn: 'Basic Monthly (old)',
    durationInMonths: 1,
    price: 9.9,
    currency: 'USD',
    isRecurrent: true,
    description: 'המחיר הקודם; לא נמכרת עוד',
    descriptionEn: 'The former price; no longer on sale',
    features: ['HD', '1 screen'],
    status: 'INACTIVE',
  },
]);

/** The friend who signed up with the ambassador's referral ID: a client of theirs, not one of the demo logins. */
export const DEMO_FRIEND: Pick<SignUpRequest, 'email' | 'firstName' | 'lastName' | 'language'> = Object.freeze({
  email: 'noa.shapira@example.com',
  firstName: 'נועה',
  lastName: 'שפירא',
  language: 'he',
});
