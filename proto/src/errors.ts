import type { Language } from './enums';
import { fillPlaceholders, type MessageParams } from './placeholders';

type CatalogueEntry = { status: number; en: string; he: string };

/**
 * The error catalogue (docs/api.md, Errors): every code the API may answer with, and every validation or screen
 * message the UIs show, with its Hebrew and English text. A message may hold `{name}` placeholders filled by
 * `formatErrorMessage`.
 *
 * It is kept as two objects so that the client portal carries only the first (docs/adr/0048, the catalogue split):
 * the codes a client, an ambassador or someone signed out can meet, then the codes only staff can meet. Both list
 * their codes under the same sections, in the same order. A new code goes to the client part unless no route a
 * client may call can answer with it (`src/test-support/client-error-codes.spec.ts` in the API checks the throws).
 */
export const CLIENT_ERROR_CATALOGUE = {
  // Authentication and session
  'error.auth.bad.credentials': { status: 401, en: 'Incorrect email or password', he: 'אימייל או סיסמה שגויים' },
  'error.user.not.active': { status: 403, en: 'User is not active', he: 'המשתמש אינו פעיל' },
  'error.user.email.not.verified': {
    status: 403,
    en: 'Email is not verified. Check your inbox for the confirmation link',
    he: 'כתובת האימייל לא אומתה. בדקו את תיבת הדואר לקישור האימות',
  },
  'error.account.blocked': { status: 403, en: 'Your account is blocked', he: 'החשבון שלך חסום' },
  'error.account.already.active': { status: 409, en: 'The account is already active', he: 'החשבון כבר פעיל' },
  'error.login.already.in.use': {
    status: 409,
    en: 'This email is already in use',
    he: 'כתובת האימייל הזו כבר בשימוש',
  },
  'error.confirmation.token.invalid': {
    status: 400,
    en: 'The confirmation link was not found or has expired',
    he: 'קישור האימות לא נמצא או שפג תוקפו',
  },
  'error.email.change.address.taken': {
    status: 409,
    en: 'The address was taken meanwhile',
    he: 'הכתובת נתפסה בינתיים',
  },
  'error.password.current.incorrect': {
    status: 400,
    en: 'The current password is incorrect',
    he: 'הסיסמה הנוכחית שגויה',
  },
  'error.password.update.failed': { status: 400, en: 'Failed to update the password', he: 'עדכון הסיסמה נכשל' },
  'error.session.expired': {
    status: 401,
    en: 'Your session has expired or was not found. Please log in again',
    he: 'פג תוקף ההתחברות או שלא נמצאה. התחברו מחדש',
  },
  'error.token.invalid': { status: 401, en: 'Invalid token', he: 'אסימון לא תקין' },
  'error.session.idle': {
    status: 401,
    en: 'You were signed out after a period without activity. Please sign in again',
    he: 'נותקתם לאחר זמן ללא פעילות. התחברו מחדש',
  },
  'error.session.lifetime.reached': {
    status: 401,
    en: 'Your session reached its maximum length. Please sign in again',
    he: 'ההתחברות הגיעה למשך המרבי שלה. התחברו מחדש',
  },
  'error.session.ended': {
    status: 401,
    en: 'Your session was ended: you signed out elsewhere, or your password or two-factor settings changed. Please sign in again',
    he: 'ההתחברות הסתיימה: התנתקתם במקום אחר, או שהסיסמה או הגדרות הכניסה הדו-שלבית השתנו. התחברו מחדש',
  },
  'error.session.ended.by.staff': {
    status: 401,
    en: 'You were signed out because our support team changed your password or sign-in settings. Sign in with your new password, or contact support',
    he: 'נותקתם כי צוות התמיכה שינה את הסיסמה או את הגדרות הכניסה שלכם. התחברו עם הסיסמה החדשה, או פנו לתמיכה',
  },
  'error.session.ended.by.staff.suspicious': {
    status: 401,
    en: 'Our team signed you out because of unusual activity on your account. Sign in again and change your password',
    he: 'הצוות שלנו ניתק אתכם בגלל פעילות חריגה בחשבון. התחברו מחדש והחליפו את הסיסמה',
  },
  'error.session.ended.by.staff.request': {
    status: 401,
    en: 'Our support team signed you out, as you asked. Sign in again',
    he: 'צוות התמיכה ניתק אתכם, כפי שביקשתם. התחברו מחדש',
  },
  'error.session.ended.by.staff.review': {
    status: 401,
    en: 'Our team signed you out while reviewing your account. Sign in again, or contact support',
    he: 'הצוות שלנו ניתק אתכם במסגרת בדיקת החשבון. התחברו מחדש, או פנו לתמיכה',
  },
  'error.session.not.found': {
    status: 404,
    en: 'This session has already ended',
    he: 'ההתחברות כבר הסתיימה',
  },
  'error.session.end.link.invalid': {
    status: 400,
    en: 'This link is not valid or was already used',
    he: 'הקישור אינו תקף או שכבר נוצל',
  },
  'error.session.second.factor.required': {
    status: 401,
    en: 'Staff must sign in with a one-time code. Please sign in again with your code',
    he: 'צוות חייב להתחבר עם קוד חד-פעמי. התחברו מחדש עם הקוד שלכם',
  },
  'error.access.forbidden': { status: 403, en: 'Access is forbidden', he: 'הגישה אסורה' },
  'error.view.as.read.only': {
    status: 403,
    en: 'You are viewing as the client: nothing can be changed from this view',
    he: 'אתם צופים בשם הלקוח: אי אפשר לשנות דבר מתצוגה זו',
  },
  'error.otp.required': { status: 401, en: 'A one-time code is required', he: 'נדרש קוד חד-פעמי' },
  'error.otp.initialization.required': {
    status: 401,
    en: 'One-time code setup is required',
    he: 'נדרשת הגדרה של קוד חד-פעמי',
  },
  'error.otp.invalid': {
    status: 400,
    en: 'The code is incorrect, expired or already used',
    he: 'הקוד שגוי, שפג תוקפו או שכבר נעשה בו שימוש',
  },
  // Step-up (docs/adr/0098-client-two-factor-and-step-up.md): a call that moves money or changes how one signs in
  // asks for a fresh code when two-factor sign-in is on. 403, not 401: the session is fine, the call wants more.
  'error.otp.step.up.required': {
    status: 403,
    en: 'Enter a code from your authenticator app (or a recovery code) to confirm',
    he: 'הזינו קוד מאפליקציית האימות (או קוד שחזור) לאישור',
  },
  'error.otp.reused': {
    status: 400,
    en: 'This code was already used. Wait for the next code in your authenticator app',
    he: 'כבר נעשה שימוש בקוד הזה. המתינו לקוד הבא באפליקציית האימות',
  },
  'error.otp.already.enabled': {
    status: 409,
    en: 'Two-factor sign-in is already on',
    he: 'כניסה דו-שלבית כבר מופעלת',
  },
  'error.otp.not.enabled': {
    status: 409,
    en: 'Two-factor sign-in is not on',
    he: 'כניסה דו-שלבית אינה מופעלת',
  },
  'error.rate.limited': {
    status: 429,
    en: 'Too many attempts. Please wait a moment and try again',
    he: 'יותר מדי ניסיונות. המתינו רגע ונסו שוב',
  },

  // Generic
  'error.user.not.found': { status: 404, en: 'User not found', he: 'המשתמש לא נמצא' },
  'error.entity.not.found': { status: 404, en: 'Entity not found', he: 'הפריט לא נמצא' },
  'error.bad.request': {
    status: 400,
    en: 'Bad request. Please check the data',
    he: 'בקשה שגויה. בדקו את הנתונים',
  },
  'error.unsupported.media.type': {
    status: 415,
    en: 'The request body must be JSON (Content-Type: application/json)',
    he: 'גוף הבקשה חייב להיות JSON (Content-Type: application/json)',
  },
  'error.unsupported.content.encoding': {
    status: 415,
    en: 'The request body is sent in an encoding the server does not read',
    he: 'גוף הבקשה נשלח בקידוד שהשרת אינו קורא',
  },
  'error.internal.server.error': {
    status: 500,
    en: 'Internal server error. Please try later',
    he: 'שגיאת שרת פנימית. נסו שוב מאוחר יותר',
  },
  // The database is out of connections or out of reach for a moment (docs/adr/0127-database-unavailable-is-503.md).
  'error.service.unavailable': {
    status: 503,
    en: 'The service is busy for a moment. Please try again in a few seconds',
    he: 'השירות עמוס כרגע. נסו שוב בעוד כמה שניות',
  },
  'error.entity.already.exists': { status: 409, en: 'The entity already exists', he: 'הפריט כבר קיים' },
  'error.entity.modified.concurrently': {
    status: 409,
    en: 'The entity was modified concurrently. Please reload and try again',
    he: 'הפריט שונה במקביל. טענו מחדש ונסו שוב',
  },
  'error.entity.not.unique': { status: 409, en: 'The value is not unique', he: 'הערך אינו ייחודי' },
  'error.idempotency.key.reused': {
    status: 409,
    en: 'This idempotency key was already used with a different request',
    he: 'מפתח האידמפוטנטיות כבר שימש לבקשה אחרת',
  },

  // Validation (server and forms)
  'error.validation.must.be.positive': { status: 400, en: 'Must be a positive number', he: 'חייב להיות מספר חיובי' },
  'error.validation.failed': { status: 400, en: 'Some fields are invalid', he: 'חלק מהשדות אינם תקינים' },
  'error.validation.blank': { status: 400, en: 'Must not be blank', he: 'השדה לא יכול להיות ריק' },
  'error.validation.required': { status: 400, en: 'Required', he: 'שדה חובה' },
  'error.validation.too.many.symbols': { status: 400, en: 'Too many characters', he: 'יותר מדי תווים' },
  'error.validation.invalid.format': { status: 400, en: 'Invalid format', he: 'פורמט לא תקין' },
  'error.validation.invalid.field': { status: 400, en: 'Invalid field', he: 'שדה לא תקין' },
  'error.validation.unknown.field': { status: 400, en: 'Unknown field', he: 'שדה לא מוכר' },
  'error.validation.not.nullable': {
    status: 400,
    en: 'Cannot be null; leave the field out instead',
    he: 'הערך אינו יכול להיות null; יש להשמיט את השדה',
  },
  'error.validation.invalid.sheets.url': {
    status: 400,
    en: 'Invalid spreadsheet URL',
    he: 'כתובת גיליון לא תקינה',
  },
  'error.validation.alphabetical.only': { status: 400, en: 'Only letters are allowed', he: 'מותרות אותיות בלבד' },
  'error.validation.less.than.current': {
    status: 400,
    en: 'Must not be less than the current value',
    he: 'לא יכול להיות קטן מהערך הנוכחי',
  },
  'error.validation.at.least.six.months.ahead': {
    status: 400,
    en: 'Must be at least six months ahead',
    he: 'חייב להיות לפחות שישה חודשים קדימה',
  },
  'error.validation.must.be.in.future': { status: 400, en: 'Must be in the future', he: 'חייב להיות בעתיד' },
  'error.validation.range.reversed': {
    status: 400,
    en: 'The start must not be after the end',
    he: 'ההתחלה לא יכולה להיות אחרי הסוף',
  },
  'error.validation.invalid.email': { status: 400, en: 'Enter a valid email', he: 'הזינו כתובת אימייל תקינה' },
  'error.validation.invalid.recipient': {
    status: 400,
    en: 'Enter a valid email or an 8-digit profile ID',
    he: 'הזינו אימייל תקין או מזהה פרופיל בן 8 ספרות',
  },
  'error.validation.invalid.currency': { status: 400, en: 'Enter a valid currency', he: 'הזינו מטבע תקין' },
  'error.validation.invalid.input': { status: 400, en: 'Invalid input', he: 'קלט לא תקין' },
  'error.validation.integer': { status: 400, en: 'Must be a whole number', he: 'חייב להיות מספר שלם' },
  'error.validation.max.items': {
    status: 400,
    en: 'At most {maxItems} items',
    he: 'לכל היותר {maxItems} פריטים',
  },
  'error.validation.max': { status: 400, en: 'At most {max}', he: 'לכל היותר {max}' },
  'error.validation.min': { status: 400, en: 'At least {min}', he: 'לפחות {min}' },
  'error.validation.max.decimal.places': {
    status: 400,
    en: 'At most {maxDecimalPlaces} decimal places',
    he: 'לכל היותר {maxDecimalPlaces} ספרות אחרי הנקודה',
  },
  'error.validation.min.length': { status: 400, en: 'At least {min} characters', he: 'לפחות {min} תווים' },
  'error.validation.max.length': { status: 400, en: 'At most {max} characters', he: 'לכל היותר {max} תווים' },
  'error.validation.terms.not.accepted': {
    status: 400,
    en: 'You must accept the terms to register',
    he: 'יש לאשר את התנאים כדי להירשם',
  },
  'error.validation.password.rules': {
    status: 400,
    en: 'The password must be at least {length} characters long and use only English letters, digits and special characters, with at least one digit, one lowercase letter, one uppercase letter and one special character.',
    he: 'הסיסמה צריכה להכיל לפחות {length} תווים, רק אותיות באנגלית, ספרות ותווים מיוחדים, ובהם לפחות ספרה אחת, אות קטנה אחת, אות גדולה אחת ותו מיוחד אחד.',
  },
  'error.validation.password.same.as.old': {
    status: 400,
    en: 'The new password must differ from the old one',
    he: 'הסיסמה החדשה חייבת להיות שונה מהישנה',
  },
  'error.validation.passwords.do.not.match': {
    status: 400,
    en: 'The passwords do not match',
    he: 'הסיסמאות אינן תואמות',
  },
  'error.validation.person.name': {
    status: 400,
    en: 'Start with a letter; use letters, spaces, apostrophes, hyphens, dots or commas',
    he: 'יש להתחיל באות; מותרות אותיות, רווחים, גרשים, מקפים, נקודות ופסיקים',
  },
  'error.validation.subscription.login': {
    status: 400,
    en: 'Use 6 to 64 lowercase English letters, digits, dots, hyphens or underscores',
    he: 'יש להשתמש ב-6 עד 64 אותיות אנגליות קטנות, ספרות, נקודות, מקפים או קווים תחתונים',
  },
  'error.validation.subscription.password': {
    status: 400,
    en: 'Use at least 4 English letters, numbers or symbols',
    he: 'יש להשתמש בלפחות 4 אותיות אנגליות, מספרים או סמלים',
  },
  'error.validation.ref.numeric': {
    status: 400,
    en: 'The referral code must be numeric',
    he: 'קוד ההפניה חייב להיות מספרי',
  },
  'error.validation.page.size': { status: 400, en: 'Page size is at most {max}', he: 'גודל העמוד לכל היותר {max}' },

  // Packages (payment plans)
  'error.payment.plan.not.found': { status: 404, en: 'Package not found', he: 'החבילה לא נמצאה' },
  'error.payment.plan.not.active': { status: 409, en: 'The package is not active', he: 'החבילה אינה פעילה' },
  'error.plan.no.longer.available': {
    status: 409,
    en: 'This package is no longer available',
    he: 'החבילה הזו כבר אינה זמינה',
  },

  // Payments and balance
  'error.payment.not.found': { status: 404, en: 'Payment not found', he: 'התשלום לא נמצא' },
  'error.receipt.not.found': { status: 404, en: 'Receipt not found', he: 'הקבלה לא נמצאה' },
  'error.insufficient.balance': { status: 409, en: 'Insufficient balance', he: 'אין מספיק יתרה' },
  'error.withdrawal.exceeds.balance': {
    status: 409,
    en: 'A withdrawal cannot exceed the balance',
    he: 'משיכה לא יכולה לעלות על היתרה',
  },
  'error.voucher.code.invalid': {
    status: 404,
    en: 'This voucher code is not valid',
    he: 'קוד השובר אינו תקף',
  },
  'error.voucher.code.already.redeemed': {
    status: 409,
    en: 'This voucher code was already redeemed',
    he: 'קוד השובר כבר מומש',
  },
  'error.voucher.subscription.needed': {
    status: 409,
    en: 'This voucher starts a subscription to {planName}: choose a login and password for it',
    he: 'השובר פותח מנוי לחבילה {planName}: יש לבחור לו שם משתמש וסיסמה',
  },
  'error.transfer.to.self': { status: 409, en: 'You cannot transfer to yourself', he: 'לא ניתן להעביר לעצמך' },
  'error.card.provider.unavailable': {
    status: 503,
    en: 'The card provider is unavailable',
    he: 'ספק הכרטיסים אינו זמין',
  },
  'error.package.cannot.be.bought.via.card.provider': {
    status: 409,
    en: 'This package cannot be bought by card',
    he: 'לא ניתן לקנות את החבילה הזו בכרטיס',
  },
  'error.card.balance.payments.off': {
    status: 409,
    en: 'Top-ups and renewals by card are turned off here. Use the balance or crypto',
    he: 'הטענות וחידושים בכרטיס אשראי כבויים כאן. אפשר לשלם מהיתרה או בקריפטו',
  },
  'error.deposit.claim.not.found': { status: 404, en: 'Transfer claim not found', he: 'הדיווח על ההעברה לא נמצא' },
  'error.deposit.claim.too.many.open': {
    status: 409,
    en: 'You already have {max} transfers waiting to be checked. We will get to them soon',
    he: 'כבר יש לך {max} העברות שממתינות לבדיקה. נטפל בהן בקרוב',
  },
  'error.deposit.claim.closed': {
    status: 409,
    en: 'This transfer claim was already settled or rejected',
    he: 'הדיווח על ההעברה כבר הוסדר או נדחה',
  },
  'error.deposit.amount.out.of.range': {
    status: 400,
    en: 'A deposit must be between {minAmount} and {maxAmount} dollars',
    he: 'סכום ההפקדה חייב להיות בין {minAmount} ל-{maxAmount} דולר',
  },
  'error.cashier.unavailable': {
    status: 503,
    en: 'Crypto deposits are unavailable right now: the crypto cashier is not set up or cannot be reached',
    he: 'הפקדות בקריפטו אינן זמינות כעת: קופת הקריפטו לא הוגדרה או שלא ניתן להתחבר אליה',
  },
  'error.card.webhook.signature.invalid': {
    status: 400,
    en: 'The card provider notification signature is missing or wrong',
    he: 'החתימה של הודעת ספק הכרטיסים חסרה או שגויה',
  },
  'error.cashier.signature.invalid': {
    status: 401,
    en: 'The notification signature is missing or wrong',
    he: 'החתימה של ההודעה חסרה או שגויה',
  },
  'error.telegram.webhook.secret': {
    status: 401,
    en: 'The Telegram secret token is missing or wrong',
    he: 'אסימון הסוד של טלגרם חסר או שגוי',
  },
  'error.telegram.update.invalid': {
    status: 400,
    en: 'The Telegram update has no update id',
    he: 'לעדכון מטלגרם אין מזהה עדכון',
  },
  'error.telegram.not.configured': {
    status: 503,
    en: 'Telegram is not set up on this service',
    he: 'טלגרם לא הוגדר בשירות הזה',
  },
  'error.telegram.not.linked': {
    status: 404,
    en: 'No Telegram account is linked',
    he: 'לא מקושר חשבון טלגרם',
  },
  'error.telegram.unavailable': {
    status: 503,
    en: 'Telegram cannot be reached right now. Try again in a minute',
    he: 'לא ניתן להתחבר לטלגרם כעת. נסו שוב בעוד דקה',
  },
  'error.cashier.notification.invalid': {
    status: 400,
    en: 'The notification does not name a payment of ours',
    he: 'ההודעה אינה מתייחסת לתשלום שלנו',
  },
  'error.cashier.payment.not.found': {
    status: 404,
    en: 'The cashier does not know the payment this notification names',
    he: 'הקופה אינה מכירה את התשלום שההודעה מציינת',
  },
  'error.cashier.too.many.pending': {
    status: 429,
    en: 'You have too many unpaid deposits. Pay or wait for one of them first',
    he: 'יש לך יותר מדי הפקדות שלא שולמו. שלמו או המתינו לאחת מהן קודם',
  },
  'error.cashier.api.key.invalid': {
    status: 403,
    en: 'The cashier API key is missing or wrong',
    he: 'מפתח ה-API של הקופה חסר או שגוי',
  },
  'error.cashier.invoice.not.found': { status: 404, en: 'Invoice not found', he: 'החשבונית לא נמצאה' },
  'error.cashier.invoice.closed': {
    status: 409,
    en: 'This invoice is already paid, failed or expired',
    he: 'החשבונית הזו כבר שולמה, נכשלה או פג תוקפה',
  },
  'error.cashier.sandbox.off': {
    status: 404,
    en: 'The sandbox cashier is off on this server',
    he: 'קופת הניסוי כבויה בשרת הזה',
  },
  'error.cashier.sandbox.amount.out.of.range': {
    status: 400,
    en: 'A sandbox payment must be between {minPercent}% and {maxPercent}% of the invoice amount',
    he: 'תשלום בקופת הניסוי חייב להיות בין {minPercent}% ל-{maxPercent}% מסכום החשבונית',
  },
  'error.card.sandbox.off': {
    status: 404,
    en: 'The sandbox card checkout is off on this server',
    he: 'קופת הכרטיסים לניסוי כבויה בשרת הזה',
  },
  'error.card.sandbox.api.key.invalid': {
    status: 401,
    en: 'The sandbox card API key is missing or wrong',
    he: 'מפתח ה-API של קופת הכרטיסים לניסוי חסר או שגוי',
  },
  'error.card.sandbox.checkout.not.found': { status: 404, en: 'Checkout not found', he: 'התשלום לא נמצא' },
  'error.card.sandbox.checkout.closed': {
    status: 409,
    en: 'This checkout is already paid or expired',
    he: 'התשלום הזה כבר שולם או שפג תוקפו',
  },
  'error.payment.failed': {
    status: 400,
    en: 'There was a problem processing the payment, please try again',
    he: 'אירעה בעיה בעיבוד התשלום, נסו שוב',
  },
  // Statements (docs/adr/0096-statements.md)
  'error.statement.period.too.long': {
    status: 400,
    en: 'A statement covers at most {maxDays} days',
    he: 'דוח תנועות מכסה לכל היותר {maxDays} ימים',
  },
  'error.statement.too.many.postings': {
    status: 400,
    en: 'This period has more than {max} postings: choose a shorter one',
    he: 'בתקופה הזו יותר מ-{max} תנועות: בחרו תקופה קצרה יותר',
  },

  // Subscriptions and the streaming service
  'error.subscription.not.found': { status: 404, en: 'Subscription not found', he: 'המנוי לא נמצא' },
  'error.subscription.already.renewed': {
    status: 409,
    en: 'This subscription is already paid a full period ahead',
    he: 'המנוי הזה כבר שולם לתקופה מלאה קדימה',
  },
  'error.subscription.not.renewable': {
    status: 409,
    en: 'This subscription cannot be renewed',
    he: 'לא ניתן לחדש את המנוי הזה',
  },
  'error.renewal.amount.changed': {
    status: 409,
    en: 'Renewing now takes a deposit of {amount} dollars, not the amount shown. Check it and try again',
    he: 'החידוש דורש כעת הפקדה של {amount} דולר, ולא את הסכום שהוצג. בדקו אותו ונסו שוב',
  },
  'error.subscription.ended': {
    status: 409,
    en: 'This subscription has ended. You can buy a new one',
    he: 'המנוי הזה הסתיים. אפשר לרכוש מנוי חדש',
  },
  'error.subscription.funding.not.recurrent': {
    status: 409,
    en: 'Only a subscription that renews automatically can choose how its renewals are paid',
    he: 'רק מנוי שמתחדש אוטומטית יכול לבחור איך לשלם על החידושים',
  },
  'error.card.not.saved': {
    status: 409,
    en: 'There is no saved card: save a card first',
    he: 'אין כרטיס שמור: יש לשמור כרטיס קודם',
  },
  'error.subscription.not.cancelled': {
    status: 409,
    en: 'This subscription is not cancelled, so there is nothing to resume',
    he: 'המנוי הזה לא בוטל, כך שאין מה להמשיך',
  },
  'error.subscription.in.grace': {
    status: 409,
    en: 'This subscription is paused awaiting payment. Renew it to keep it, or let it end',
    he: 'המנוי הזה מושהה וממתין לתשלום. אפשר לחדש אותו כדי לשמור עליו, או לתת לו להסתיים',
  },
  'error.subscription.resume.too.late': {
    status: 409,
    en: 'This subscription has reached its end date and can no longer be resumed. You can buy a new one',
    he: 'המנוי הזה הגיע לתאריך הסיום ואי אפשר עוד להמשיך אותו. אפשר לרכוש מנוי חדש',
  },
  'error.streaming.integration.failure': {
    status: 502,
    en: 'The streaming service could not be reached. Please try later',
    he: 'לא ניתן להתחבר לשירות הסטרימינג. נסו שוב מאוחר יותר',
  },
  'error.login.already.exists': {
    status: 409,
    en: 'This login is already taken at the streaming service. Please choose another',
    he: 'שם המשתמש הזה כבר תפוס בשירות הסטרימינג. בחרו שם אחר',
  },
  'error.directory.login.already.exists': {
    status: 409,
    en: 'This login already exists',
    he: 'שם המשתמש הזה כבר קיים',
  },
  'error.directory.login.not.found': { status: 404, en: 'Login not found', he: 'שם המשתמש לא נמצא' },
  'error.subscriptions.too.many': {
    status: 429,
    en: 'Too many subscriptions right now due to high traffic. Please try later',
    he: 'יותר מדי מנויים כרגע בגלל עומס. נסו שוב מאוחר יותר',
  },
  'error.trial.already.used': { status: 409, en: 'The trial was already used', he: 'תקופת הניסיון כבר נוצלה' },
  'error.trial.cannot.be.cancelled': {
    status: 409,
    en: 'A trial cannot be cancelled',
    he: 'לא ניתן לבטל תקופת ניסיון',
  },
  'error.trial.login.cannot.be.changed': {
    status: 409,
    en: 'The login of a trial cannot be changed',
    he: 'לא ניתן לשנות את שם המשתמש של תקופת ניסיון',
  },
  'error.notification.not.found': { status: 404, en: 'Notification not found', he: 'ההתראה לא נמצאה' },
  'error.notification.preferences.channel.not.offered': {
    status: 400,
    en: 'This kind of notification cannot go on that channel',
    he: 'סוג ההתראה הזה אינו נשלח בערוץ הזה',
  },
  'error.notification.preferences.security.required': {
    status: 400,
    en: 'Sign-in alerts stay on by e-mail or in the portal',
    he: 'התראות על כניסה נשארות פעילות באימייל או בפורטל',
  },
  'error.notification.preferences.lead.days.range': {
    status: 400,
    en: 'Reminder lead time is 1 to 60 days',
    he: 'זמן התזכורת מראש הוא בין 1 ל-60 ימים',
  },
  'error.notification.preferences.threshold.range': {
    status: 400,
    en: 'The low-balance threshold is $0.01 to $1,000',
    he: 'סף היתרה הנמוכה הוא בין $0.01 ל-$1,000',
  },
  'error.notification.preferences.quiet.hours.invalid': {
    status: 400,
    en: 'Quiet hours need a start and an end time (HH:MM) that differ',
    he: 'שעות השקט דורשות שעת התחלה ושעת סיום שונות (HH:MM)',
  },
  'error.notification.preferences.time.zone.invalid': {
    status: 400,
    en: 'Unknown time zone',
    he: 'אזור זמן לא מוכר',
  },

  // Broadcasts (docs/adr/0091-broadcasts.md)
  'error.unsubscribe.link.invalid': {
    status: 400,
    en: 'This unsubscribe link is not valid',
    he: 'קישור ההסרה אינו תקין',
  },

  // Promo codes (docs/adr/0088-promo-codes.md)
  'error.promo.code.invalid': {
    status: 400,
    en: 'A promo code has 3 to 32 letters, digits, - or _',
    he: 'קוד הנחה מכיל 3 עד 32 אותיות, ספרות, - או _',
  },
  'error.promo.code.not.found': { status: 404, en: 'Unknown promo code', he: 'קוד ההנחה אינו מוכר' },
  'error.promo.code.expired': {
    status: 409,
    en: 'This promo code is not valid at this time',
    he: 'קוד ההנחה אינו בתוקף כעת',
  },
  'error.promo.code.disabled': { status: 409, en: 'This promo code was disabled', he: 'קוד ההנחה הושבת' },
  'error.promo.code.used.up': {
    status: 409,
    en: 'This promo code has been used up',
    he: 'נגמרו השימושים בקוד ההנחה',
  },
  'error.promo.code.already.used': {
    status: 409,
    en: 'You have already used this promo code',
    he: 'כבר השתמשת בקוד ההנחה הזה',
  },
  'error.promo.code.not.for.plan': {
    status: 409,
    en: 'This promo code is not for this package',
    he: 'קוד ההנחה אינו תקף לחבילה הזו',
  },
  'error.promo.code.not.for.payment': {
    status: 409,
    en: 'This promo code is not for this kind of payment',
    he: 'קוד ההנחה אינו תקף לסוג התשלום הזה',
  },
  'error.promo.code.new.clients.only': {
    status: 409,
    en: 'This promo code is for new clients only',
    he: 'קוד ההנחה מיועד ללקוחות חדשים בלבד',
  },

  // Screen messages the UIs show outside a server answer
  'error.page.not.found': { status: 404, en: 'The page does not exist', he: 'הדף אינו קיים' },
  // The browser reached no server at all (offline, a dropped connection): not the server's fault, and worth a retry.
  'error.connection.lost': {
    status: 503,
    en: 'No connection to the server. Check your internet connection and try again',
    he: 'אין חיבור לשרת. בדקו את החיבור לאינטרנט ונסו שוב',
  },
  'error.something.went.wrong': { status: 500, en: 'Something went wrong', he: 'משהו השתבש' },
} as const satisfies Record<string, CatalogueEntry>;

/** The codes only staff can meet: administration, bulk operations, broadcasts, refunds, reports, the console. */
export const STAFF_ERROR_CATALOGUE = {
  // Authentication and session
  'error.view.as.staff.account': {
    status: 403,
    en: 'Only a client or ambassador account can be viewed as its owner',
    he: 'אפשר לצפות בשם בעל החשבון רק בחשבון של לקוח או שגריר',
  },
  'error.metrics.token.unset': {
    status: 403,
    en: 'The metrics are closed on this server until METRICS_TOKEN is set',
    he: 'המדדים סגורים בשרת הזה עד שיוגדר METRICS_TOKEN',
  },

  // Generic
  'error.audit.not.found': { status: 404, en: 'Activity log entry not found', he: 'רשומת היומן לא נמצאה' },

  // Validation (server and forms)

  // Packages (payment plans)
  'error.payment.plan.already.exists': { status: 409, en: 'The package already exists', he: 'החבילה כבר קיימת' },
  'error.payment.plan.cannot.be.deleted': {
    status: 409,
    en: 'The package is in use and cannot be deleted',
    he: 'החבילה בשימוש ולא ניתן למחוק אותה',
  },
  'error.payment.plan.cannot.be.modified': {
    status: 409,
    en: 'The package is in use and its price or duration cannot be changed',
    he: 'החבילה בשימוש ולא ניתן לשנות את מחירה או משכה',
  },

  // Payments and balance
  'error.payment.not.large.deposit': {
    status: 409,
    en: 'This payment is not a large deposit waiting to be seen',
    he: 'התשלום הזה אינו הפקדה גדולה שממתינה לבדיקה',
  },
  'error.payment.already.refunded': {
    status: 409,
    en: 'This payment was already refunded',
    he: 'התשלום הזה כבר הוחזר',
  },
  'error.payment.not.refundable': {
    status: 409,
    en: 'Only a completed subscription payment can be refunded to the balance',
    he: 'רק תשלום מנוי שהושלם ניתן להחזיר ליתרה',
  },
  'error.payment.status.manual.only': {
    status: 409,
    en: 'Only manual payments can change status',
    he: 'רק לתשלומים ידניים ניתן לשנות סטטוס',
  },
  'error.balance.negative.confirmation.required': {
    status: 409,
    en: 'This change leaves the balance negative ({resultingBalance}). Confirm to continue',
    he: 'השינוי ישאיר יתרה שלילית ({resultingBalance}). יש לאשר כדי להמשיך',
  },
  'error.voucher.batch.not.funded': {
    status: 409,
    en: 'This voucher cannot be redeemed yet',
    he: 'עדיין לא ניתן לממש את השובר',
  },
  'error.voucher.batch.already.funded': {
    status: 409,
    en: 'This voucher batch was already recorded as sold or given away',
    he: 'סדרת השוברים כבר נרשמה כנמכרה או כניתנה במתנה',
  },
  'error.voucher.batch.not.found': { status: 404, en: 'Voucher batch not found', he: 'סדרת השוברים לא נמצאה' },
  'error.voucher.funding.amount.invalid': {
    status: 400,
    en: 'A sold day voucher batch needs the amount received; one given away has none',
    he: 'לסדרת שוברי ימים שנמכרה יש לציין את הסכום שהתקבל; לסדרה שניתנה במתנה אין סכום',
  },
  'error.bulk.batch.not.found': { status: 404, en: 'Bulk operation not found', he: 'הפעולה הגורפת לא נמצאה' },
  'error.bulk.no.targets': {
    status: 409,
    en: 'No clients or subscriptions match this selection',
    he: 'אין לקוחות או מנויים שמתאימים לבחירה הזו',
  },
  'error.bulk.too.many.targets': {
    status: 409,
    en: 'This selection matches more than {max} targets: narrow it',
    he: 'הבחירה הזו מתאימה ליותר מ-{max} יעדים: יש לצמצם אותה',
  },

  // Subscriptions and the streaming service
  'error.subscription.not.extendable': {
    status: 409,
    en: 'Days can be added only to a subscription that has started and not ended',
    he: 'אפשר להוסיף ימים רק למנוי שכבר התחיל ועוד לא הסתיים',
  },

  // Broadcasts (docs/adr/0091-broadcasts.md)
  'error.broadcast.not.found': { status: 404, en: 'Broadcast not found', he: 'ההודעה לא נמצאה' },
  'error.broadcast.no.recipients': {
    status: 409,
    en: 'No client matches these filters',
    he: 'אין לקוחות שמתאימים לסינון',
  },

  // Promo codes (docs/adr/0088-promo-codes.md)
  'error.promo.code.already.exists': { status: 409, en: 'This promo code already exists', he: 'קוד ההנחה כבר קיים' },
  'error.promo.code.terms.invalid': {
    status: 400,
    en: 'Give a percent from 1 to 99 or a fixed amount, and an end after the start',
    he: 'יש לציין אחוז בין 1 ל־99 או סכום קבוע, ותאריך סיום אחרי תאריך ההתחלה',
  },

  // Screen messages the UIs show outside a server answer
  'error.export.failed': {
    status: 500,
    en: 'Something went wrong, please try again later',
    he: 'משהו השתבש, נסו שוב מאוחר יותר',
  },
  'error.notes.failed': {
    status: 500,
    en: 'An error occurred, please try later',
    he: 'אירעה שגיאה, נסו שוב מאוחר יותר',
  },
  'error.use.client.app': {
    status: 403,
    en: 'This console is for staff. Clients sign in to the client app',
    he: 'הממשק הזה מיועד לצוות. לקוחות מתחברים לאפליקציית הלקוחות',
  },
} as const satisfies Record<string, CatalogueEntry>;

/**
 * The whole catalogue, for the API and the staff console. Built in a call marked pure because a bundler keeps a bare
 * object spread (it might run getters), and with it the staff part, in a UI that never reads the union.
 */
export const ERROR_CATALOGUE = /* @__PURE__ */ (() => ({ ...CLIENT_ERROR_CATALOGUE, ...STAFF_ERROR_CATALOGUE }))();

// Named from the two parts, not the union's value: the event schema generator cannot read a type a call returns.
export type ErrorCode = keyof typeof CLIENT_ERROR_CATALOGUE | keyof typeof STAFF_ERROR_CATALOGUE;
// Pure: a bundler may drop the whole catalogue from a UI that reads only its client part.
export const ERROR_CODES = /* @__PURE__ */ Object.freeze(/* @__PURE__ */ Object.keys(ERROR_CATALOGUE) as ErrorCode[]);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}

export function errorStatus(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

export function formatErrorMessage(code: ErrorCode, lang: Language, params: MessageParams = {}): string {
  return fillPlaceholders(ERROR_CATALOGUE[code][lang], params);
}

export type ClientErrorCode = keyof typeof CLIENT_ERROR_CATALOGUE;

function isClientErrorCode(value: unknown): value is ClientErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CLIENT_ERROR_CATALOGUE, value);
}

/**
 * `formatErrorMessage` for the client portal, which carries only the client part of the catalogue: a staff-only code
 * (which no route a client may call answers with) shows the generic internal-server-error text.
 */
export function formatClientErrorMessage(code: ErrorCode, lang: Language, params: MessageParams = {}): string {
  const known: ClientErrorCode = isClientErrorCode(code) ? code : 'error.internal.server.error';
  return fillPlaceholders(CLIENT_ERROR_CATALOGUE[known][lang], params);
}

/** One field's problem in a 400 answer. */
export interface FieldError {
  field: string;
  error: ErrorCode;
  params?: Record<string, string | number>;
}

/** The body of every error answer (docs/api.md, Errors). */
export interface ApiErrorBody {
  status: number;
  error: ErrorCode | string;
  message: string;
  details?: {
    fields?: FieldError[];
    [key: string]: unknown;
  };
}

/**
 * The message a UI shows for a failed call (docs/product.md, Common): the catalogue text when the body's `error` (else
 * its `message`) is a known code, else the raw server message, else the internal-server-error text.
 */
export function messageForApiError(body: unknown, lang: Language): string {
  return messageOfApiError(body, lang, isErrorCode, formatErrorMessage);
}

/**
 * `messageForApiError` for the client portal (see `formatClientErrorMessage`). A code the portal does not carry (a
 * staff-only one, or one newer than this build) reads as the server's own message when the answer has one, as it did
 * before the catalogue was split, and as the generic message when it has none: never as the bare code.
 */
export function clientMessageForApiError(body: unknown, lang: Language): string {
  const code = typeof body === 'object' && body !== null ? (body as Partial<ApiErrorBody>).error : undefined;
  const message = typeof body === 'object' && body !== null ? (body as Partial<ApiErrorBody>).message : undefined;
  const unknownCode = typeof code === 'string' && code.startsWith('error.') && !isClientErrorCode(code);
  if (unknownCode && (typeof message !== 'string' || message.trim() === '' || message.startsWith('error.'))) {
    return formatClientErrorMessage('error.internal.server.error', lang);
  }
  return messageOfApiError(body, lang, isClientErrorCode, formatClientErrorMessage);
}

function messageOfApiError(
  body: unknown,
  lang: Language,
  isCode: (value: unknown) => value is ErrorCode,
  format: typeof formatErrorMessage,
): string {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Partial<ApiErrorBody>;
  const candidates = [record.error, record.message];
  for (const candidate of candidates) {
    if (isCode(candidate)) {
      const details = record.details ?? {};
      const params: Record<string, string | number> = {};
      for (const [key, value] of Object.entries(details)) {
        if (typeof value === 'string' || typeof value === 'number') params[key] = value;
      }
      return format(candidate, lang, params);
    }
  }
  if (typeof record.message === 'string' && record.message.trim() !== '') return record.message;
  if (typeof record.error === 'string' && record.error.trim() !== '') return record.error;
  return format('error.internal.server.error', lang);
}

/**
 * The per-field refusals of a 400 answer's body, each as its catalogue message in `lang`, keyed by field name (the
 * first refusal of a field wins), for forms to show beside their inputs.
 */
export function fieldMessagesOfApiError(body: unknown, lang: Language): Record<string, string> {
  return fieldMessagesOf(body, lang, messageForApiError);
}

/** `fieldMessagesOfApiError` for the client portal (see `formatClientErrorMessage`). */
export function clientFieldMessagesOfApiError(body: unknown, lang: Language): Record<string, string> {
  return fieldMessagesOf(body, lang, clientMessageForApiError);
}

function fieldMessagesOf(
  body: unknown,
  lang: Language,
  message: (body: unknown, lang: Language) => string,
): Record<string, string> {
  const fields =
    (typeof body === 'object' && body !== null ? (body as Partial<ApiErrorBody>).details?.fields : null) ?? [];
  const result: Record<string, string> = {};
  for (const field of fields) {
    result[field.field] ??= message({ error: field.error, message: '', details: field.params }, lang);
  }
  return result;
}
