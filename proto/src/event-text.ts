/*
 * How events, activity-log fields and ledger accounts read in people's language (docs/product.md, Audit and Ledger):
 * one mapping that the activity log's list and detail, the account history and the payments CSV share. A test fails
 * when an event type, a field the mappers write or a system account lacks a Hebrew or an English text.
 */
import { SYSTEM_ACCOUNTS, type SystemAccount } from './accounts';
import type { Bilingual } from './bilingual';
import type { AuditOperationType, AuditTargetType, Language } from './enums';
import type { EventType } from './event-catalogue';
import type { EnumName } from './labels';
import {
  NOTIFICATION_PREFERENCE_KIND_LABELS,
  NOTIFICATION_PREFERENCE_KINDS,
  type NotificationPreferenceKind,
} from './notification-preferences';

/** A short name per event type: the account history's entry type, and the sentence of last resort. */
export const EVENT_TYPE_LABELS: Readonly<Record<EventType, Bilingual>> = Object.freeze({
  UserRegistered: { he: 'הרשמה', en: 'Sign-up' },
  UserCreatedByStaff: { he: 'חשבון נפתח על ידי הצוות', en: 'Account created by staff' },
  UserEmailConfirmed: { he: 'אימות כתובת הדוא״ל', en: 'E-mail address confirmed' },
  UserProfileUpdated: { he: 'עדכון פרופיל', en: 'Profile updated' },
  UserPasswordChanged: { he: 'שינוי סיסמה', en: 'Password changed' },
  UserPasswordReset: { he: 'איפוס סיסמה', en: 'Password reset' },
  UserPasswordSetByStaff: { he: 'סיסמה נקבעה על ידי הצוות', en: 'Password set by staff' },
  UserSessionsEndedByStaff: { he: 'ניתוק התחברויות על ידי הצוות', en: 'Sessions ended by staff' },
  UserStatusChanged: { he: 'שינוי סטטוס', en: 'Status changed' },
  UserRoleChanged: { he: 'שינוי תפקיד', en: 'Role changed' },
  UserTrialRejected: { he: 'ויתור על תקופת הניסיון', en: 'Trial declined' },
  UserTrialUsed: { he: 'ניצול תקופת הניסיון', en: 'Trial used' },
  UserNoteAdded: { he: 'הוספת הערה', en: 'Note added' },
  UserNoteDeleted: { he: 'מחיקת הערה', en: 'Note deleted' },
  UserConfirmationMailRequested: { he: 'בקשה לדוא״ל אימות', en: 'Confirmation e-mail requested' },
  UserPasswordResetRequested: { he: 'בקשה לאיפוס סיסמה', en: 'Password reset requested' },
  UserTwoFactorEnabled: { he: 'הפעלת אימות דו-שלבי', en: 'Two-factor sign-in turned on' },
  UserTwoFactorDisabled: { he: 'כיבוי אימות דו-שלבי', en: 'Two-factor sign-in turned off' },
  UserTwoFactorReset: { he: 'איפוס אימות דו-שלבי', en: 'Two-factor sign-in reset' },
  UserViewedByStaff: { he: 'צפייה בפורטל בשם הלקוח', en: 'Portal viewed as the client' },
  UserEmailChangeRequested: { he: 'בקשה לשינוי כתובת הדוא״ל', en: 'E-mail change requested' },
  UserEmailChanged: { he: 'שינוי כתובת הדוא״ל', en: 'E-mail address changed' },
  ManualDepositRecorded: { he: 'הפקדה ידנית', en: 'Manual deposit' },
  WithdrawalRecorded: { he: 'משיכה', en: 'Withdrawal' },
  BalanceCorrected: { he: 'תיקון יתרה', en: 'Balance correction' },
  // One transaction books both sides of a transfer, so the recipient's posting carries this type too: the name
  // must fit both sides.
  TransferSent: { he: 'העברה בין לקוחות', en: 'Transfer between clients' },
  TransferReceived: { he: 'קבלת העברה', en: 'Transfer received' },
  PaymentReversed: { he: 'ביטול רישום תשלום', en: 'Payment taken off the books' },
  PaymentReapplied: { he: 'רישום תשלום מחדש', en: 'Payment put back on the books' },
  AmbassadorBonusCredited: { he: 'בונוס שגריר', en: 'Ambassador bonus' },
  SubscriptionCharged: { he: 'חיוב מנוי', en: 'Subscription charge' },
  SubscriptionRefunded: { he: 'החזר על מנוי', en: 'Subscription refund' },
  PaymentRecorded: { he: 'רישום תשלום', en: 'Payment recorded' },
  PaymentStatusChanged: { he: 'שינוי סטטוס תשלום', en: 'Payment status changed' },
  CashierDepositCredited: { he: 'הפקדה בקריפטו', en: 'Crypto deposit' },
  CashierInvoiceOpened: { he: 'פתיחת חשבונית קריפטו', en: 'Crypto invoice opened' },
  CashierPaymentReported: { he: 'עדכון מקופת הקריפטו', en: 'Crypto cashier report' },
  AmbassadorBonusRaised: { he: 'השלמת בונוס שגריר', en: 'Ambassador bonus raised' },
  DepositPurchaseRequested: { he: 'הפקדה לרכישה', en: 'Deposit to buy' },
  DepositPurchaseCompleted: { he: 'הרכישה מההפקדה בוצעה', en: 'Deposit purchase done' },
  DepositPurchaseFailed: { he: 'הרכישה מההפקדה נכשלה', en: 'Deposit purchase failed' },
  CardCheckoutOpened: { he: 'פתיחת תשלום בכרטיס', en: 'Card checkout opened' },
  CardPaymentReported: { he: 'עדכון מספק הכרטיסים', en: 'Card provider report' },
  CardDepositCredited: { he: 'הפקדה בכרטיס', en: 'Card deposit' },
  PaymentRefundedToBalance: { he: 'החזר תשלום ליתרה', en: 'Payment refunded to the balance' },
  VoucherRedeemed: { he: 'מימוש שובר', en: 'Voucher redeemed' },
  GoodwillCredited: { he: 'זיכוי רצון טוב', en: 'Goodwill credit' },
  VoucherBatchGenerated: { he: 'נוצרה סדרת שוברים', en: 'Voucher batch generated' },
  VoucherBatchSold: { he: 'סדרת שוברים נמכרה', en: 'Voucher batch sold' },
  VoucherBatchGivenAway: { he: 'סדרת שוברים ניתנה במתנה', en: 'Voucher batch given away' },
  VoucherCodeRedeemed: { he: 'קוד שובר מומש', en: 'Voucher code redeemed' },
  BulkBatchStarted: { he: 'פעולה גורפת התחילה', en: 'Bulk operation started' },
  BulkTargetDone: { he: 'פעולה גורפת בוצעה ליעד', en: 'Bulk operation done for a target' },
  BulkTargetFailed: { he: 'פעולה גורפת נכשלה ליעד', en: 'Bulk operation failed for a target' },
  BulkBatchCompleted: { he: 'פעולה גורפת הסתיימה', en: 'Bulk operation finished' },
  BroadcastSent: { he: 'שליחת הודעה ללקוחות', en: 'Broadcast sent' },
  BroadcastHandedOff: { he: 'ההודעה הועברה לכל הנמענים', en: 'Broadcast handed to every recipient' },
  TelegramLinked: { he: 'קישור טלגרם', en: 'Telegram linked' },
  TelegramUnlinked: { he: 'ניתוק טלגרם', en: 'Telegram unlinked' },
  NotificationPreferencesChanged: { he: 'שינוי העדפות התראות', en: 'Notification preferences changed' },
  LargeDepositAcknowledged: { he: 'הפקדה גדולה סומנה כנבדקה', en: 'Large deposit marked as seen' },
  ManualTransferClaimed: { he: 'דיווח על העברה ידנית', en: 'Manual transfer claimed' },
  ManualTransferClaimSettled: { he: 'דיווח על העברה ידנית הוסדר', en: 'Manual transfer claim settled' },
  ManualTransferClaimRejected: { he: 'דיווח על העברה ידנית נדחה', en: 'Manual transfer claim rejected' },
  PaymentPlanCreated: { he: 'יצירת חבילה', en: 'Package created' },
  PaymentPlanUpdated: { he: 'עדכון חבילה', en: 'Package updated' },
  PaymentPlanStatusChanged: { he: 'שינוי סטטוס חבילה', en: 'Package status changed' },
  PaymentPlanDeleted: { he: 'מחיקת חבילה', en: 'Package deleted' },
  SubscriptionPurchased: { he: 'רכישת מנוי', en: 'Subscription bought' },
  SubscriptionActivated: { he: 'הפעלת מנוי', en: 'Subscription activated' },
  SubscriptionRenewed: { he: 'חידוש מנוי', en: 'Subscription renewed' },
  SubscriptionRenewalFailed: { he: 'חידוש מנוי נכשל', en: 'Subscription renewal failed' },
  SubscriptionCancelled: { he: 'ביטול מנוי', en: 'Subscription cancelled' },
  SubscriptionResumed: { he: 'המשך מנוי שבוטל', en: 'Subscription resumed' },
  SubscriptionRecurrenceDeactivated: { he: 'הפסקת חידוש אוטומטי', en: 'Automatic renewal stopped' },
  SubscriptionEnded: { he: 'סיום מנוי', en: 'Subscription ended' },
  SubscriptionLoginChanged: { he: 'שינוי שם משתמש של מנוי', en: 'Subscription login changed' },
  SubscriptionPasswordChanged: { he: 'שינוי סיסמת מנוי', en: 'Subscription password changed' },
  SubscriptionProvisioningFailed: { he: 'הקמת מנוי נכשלה', en: 'Subscription setup failed' },
  SubscriptionLapsed: { he: 'מנוי מושהה עד לתשלום', en: 'Subscription paused awaiting payment' },
  SubscriptionRenewalFundingChanged: { he: 'שינוי אמצעי החידוש', en: 'Renewal funding changed' },
  SubscriptionCardRenewalStarted: { he: 'חיוב כרטיס לחידוש', en: 'Card charged for renewal' },
  SubscriptionCardRenewalPending: { he: 'חיוב כרטיס לחידוש בעיבוד', en: 'Card renewal charge processing' },
  SubscriptionCardRenewalFailed: { he: 'חיוב כרטיס לחידוש נכשל', en: 'Card renewal charge failed' },
  SubscriptionCardRenewalSettled: { he: 'חיוב כרטיס לחידוש התקבל', en: 'Card renewal charge received' },
  CardCustomerCreated: { he: 'פתיחת לקוח אצל ספק הכרטיסים', en: 'Card provider customer created' },
  CardSaved: { he: 'שמירת כרטיס', en: 'Card saved' },
  CardRemoved: { he: 'הסרת כרטיס שמור', en: 'Saved card removed' },
  SubscriptionExtended: { he: 'הוספת ימים למנוי', en: 'Days added to a subscription' },
  PromoCodeCreated: { he: 'יצירת קוד הנחה', en: 'Promo code created' },
  PromoCodeDisabled: { he: 'השבתת קוד הנחה', en: 'Promo code disabled' },
  PromoCodeRedeemed: { he: 'שימוש בקוד הנחה', en: 'Promo code used' },
  PromoCodeReserved: { he: 'שמירת שימוש בקוד הנחה', en: 'Promo code use held' },
  PromoCodeReservationReleased: { he: 'שחרור שימוש שמור בקוד הנחה', en: 'Promo code hold released' },
});

/**
 * The activity log's sentence per event type. Placeholders: `{target}` and `{parent}` (what the entry is about,
 * named), `{changes}` (each changed field as "label old → new"), `{event}` (the event's short name) and any field the
 * entry changed, by its name, standing for its new value. A sentence whose placeholders cannot all be filled gives
 * way to `FALLBACK_SENTENCE`.
 */
export const EVENT_SENTENCES: Readonly<Record<EventType, Bilingual>> = Object.freeze({
  UserRegistered: { he: '{target}: הרשמה לפורטל', en: '{target}: signed up' },
  UserCreatedByStaff: {
    he: '{target}: החשבון נפתח על ידי הצוות בתפקיד {role}',
    en: '{target}: account created by staff as {role}',
  },
  UserEmailConfirmed: { he: '{target}: כתובת הדוא״ל אומתה', en: '{target}: e-mail address confirmed' },
  UserProfileUpdated: { he: '{target}: עדכון פרופיל, {changes}', en: '{target}: profile updated, {changes}' },
  UserPasswordChanged: {
    he: '{target}: הסיסמה שונתה על ידי בעל החשבון',
    en: '{target}: password changed by the account holder',
  },
  UserPasswordReset: {
    he: '{target}: הסיסמה אופסה דרך קישור שנשלח בדוא״ל',
    en: '{target}: password reset through an e-mailed link',
  },
  UserPasswordSetByStaff: { he: '{target}: הסיסמה נקבעה על ידי הצוות', en: '{target}: password set by staff' },
  UserSessionsEndedByStaff: {
    he: '{target}: ההתחברויות נותקו על ידי {actor}',
    en: '{target}: sessions ended by {actor}',
  },
  UserStatusChanged: { he: '{target}: {changes}', en: '{target}: {changes}' },
  UserRoleChanged: { he: '{target}: {changes}', en: '{target}: {changes}' },
  UserTrialRejected: { he: '{target}: ויתור על תקופת הניסיון', en: '{target}: trial declined' },
  UserTrialUsed: { he: '{target}: תקופת הניסיון נוצלה', en: '{target}: trial used' },
  UserNoteAdded: { he: '{target}: נוספה הערה', en: '{target}: note added' },
  UserNoteDeleted: { he: '{target}: הערה נמחקה', en: '{target}: note deleted' },
  UserConfirmationMailRequested: {
    he: '{target}: התבקש שוב דוא״ל אימות',
    en: '{target}: confirmation e-mail requested again',
  },
  UserPasswordResetRequested: {
    he: '{target}: התבקש קישור לאיפוס הסיסמה',
    en: '{target}: password-reset link requested',
  },
  UserTwoFactorEnabled: { he: '{target}: אימות דו-שלבי הופעל', en: '{target}: two-factor sign-in turned on' },
  UserTwoFactorDisabled: { he: '{target}: אימות דו-שלבי כובה', en: '{target}: two-factor sign-in turned off' },
  UserTwoFactorReset: {
    he: '{target}: אימות דו-שלבי אופס על ידי מנהל מערכת',
    en: '{target}: two-factor sign-in reset by an admin',
  },
  UserViewedByStaff: { he: '{target}: נצפה על ידי {actor}, קריאה בלבד', en: '{target}: viewed by {actor}, read only' },
  UserEmailChangeRequested: {
    he: '{target}: התבקש שינוי כתובת הדוא״ל; קישור אישור נשלח לכתובת החדשה',
    en: '{target}: change of e-mail asked; a confirming link was sent to the new address',
  },
  UserEmailChanged: {
    he: '{target}: כתובת הדוא״ל שונתה, {changes}',
    en: '{target}: e-mail address changed, {changes}',
  },
  // Wallet events stay out of the log (their payment's entry tells the same story); should one ever appear, it
  // still reads as a sentence.
  ManualDepositRecorded: { he: '{target}: הפקדה ידנית', en: '{target}: manual deposit' },
  WithdrawalRecorded: { he: '{target}: משיכה', en: '{target}: withdrawal' },
  BalanceCorrected: { he: '{target}: תיקון יתרה', en: '{target}: balance correction' },
  TransferSent: { he: '{target}: העברה יוצאת', en: '{target}: transfer sent' },
  TransferReceived: { he: '{target}: העברה נכנסת', en: '{target}: transfer received' },
  PaymentReversed: { he: '{target}: ביטול רישום תשלום', en: '{target}: payment taken off the books' },
  PaymentReapplied: { he: '{target}: רישום תשלום מחדש', en: '{target}: payment put back on the books' },
  AmbassadorBonusCredited: { he: '{target}: בונוס שגריר על הפקדה', en: '{target}: ambassador bonus on a deposit' },
  SubscriptionCharged: { he: '{target}: חיוב מנוי', en: '{target}: subscription charge' },
  SubscriptionRefunded: { he: '{target}: החזר על מנוי', en: '{target}: subscription refund' },
  PaymentRecorded: {
    he: '{target} עבור {parent}: {type} בסך {amount}, סטטוס {status}',
    en: '{target} for {parent}: {type} of {amount}, status {status}',
  },
  PaymentStatusChanged: { he: '{target} של {parent}: {changes}', en: '{target} of {parent}: {changes}' },
  CashierDepositCredited: { he: '{target}: הפקדה בקריפטו', en: '{target}: crypto deposit' },
  CashierInvoiceOpened: {
    he: '{target} של {parent}: נפתחה חשבונית קריפטו על {amountAsked} ב-{payCurrency}',
    en: '{target} of {parent}: crypto invoice opened for {amountAsked} in {payCurrency}',
  },
  CashierPaymentReported: {
    he: '{target} של {parent}: עדכון מקופת הקריפטו: {changes}',
    en: '{target} of {parent}: crypto cashier report: {changes}',
  },
  AmbassadorBonusRaised: {
    he: '{target} של {parent}: הבונוס הושלם ל-{amount} עם יתרת ההפקדה',
    en: '{target} of {parent}: bonus raised to {amount} as the rest of the deposit arrived',
  },
  DepositPurchaseRequested: {
    he: '{target} של {parent}: הפקדה לתשלום עבור {purchasePlan} ({purchaseKind}) בסך {purchasePrice}',
    en: '{target} of {parent}: deposit to pay for {purchasePlan} ({purchaseKind}) at {purchasePrice}',
  },
  DepositPurchaseCompleted: {
    he: '{target} של {parent}: הרכישה ששולמה בהפקדה בוצעה',
    en: '{target} of {parent}: the purchase the deposit paid for is done',
  },
  DepositPurchaseFailed: {
    he: '{target} של {parent}: הרכישה ששולמה בהפקדה נכשלה ({purchaseError}); הכסף נשאר ביתרה',
    en: '{target} of {parent}: the purchase the deposit paid for failed ({purchaseError}); the money stays on the balance',
  },
  CardCheckoutOpened: {
    he: '{target} של {parent}: נפתח תשלום בכרטיס על {amountAsked}',
    en: '{target} of {parent}: card checkout opened for {amountAsked}',
  },
  CardPaymentReported: {
    he: '{target} של {parent}: עדכון מספק הכרטיסים: {changes}',
    en: '{target} of {parent}: card provider report: {changes}',
  },
  PaymentRefundedToBalance: {
    he: '{target} של {parent}: {refundedAmount} הוחזרו ליתרה בתשלום {refundPaymentId} (סיבה: {refundReason}; המנוי הסתיים מיד: {refundEndedSubscription})',
    en: '{target} of {parent}: {refundedAmount} refunded to the balance as payment {refundPaymentId} (reason: {refundReason}; subscription ended now: {refundEndedSubscription})',
  },
  CardDepositCredited: { he: '{target}: הפקדה בכרטיס', en: '{target}: card deposit' },
  VoucherRedeemed: { he: '{target}: מימוש שובר', en: '{target}: voucher redeemed' },
  GoodwillCredited: { he: '{target}: זיכוי רצון טוב', en: '{target}: goodwill credit' },
  VoucherBatchGenerated: {
    he: '{target}: נוצרה סדרה של {count} שוברים, כל אחד בשווי {amount}',
    en: '{target}: {count} vouchers generated, each worth {amount}',
  },
  VoucherBatchSold: {
    he: '{target}: הסדרה נמכרה, {amount} נכנסו לשוברים שטרם מומשו ({comment})',
    en: '{target}: the batch was sold, {amount} owed to holders ({comment})',
  },
  VoucherBatchGivenAway: {
    he: '{target}: הסדרה ניתנה במתנה, {amount} על חשבון הבית ({comment})',
    en: "{target}: the batch was given away, {amount} at the house's cost ({comment})",
  },
  VoucherCodeRedeemed: {
    he: '{target}: קוד {codeNumber} מומש על ידי {parent}, {amount} לתשלום {payment}',
    en: '{target}: code {codeNumber} redeemed by {parent}, {amount} as payment {payment}',
  },
  // A batch is named by its reason: "Bulk operation ⟨outage on 28 Nov⟩: started by Avi Admin, +2 days to 1,234
  // subscriptions". Each target's own event (its extension, status change or payment) is its own entry.
  BulkBatchStarted: {
    he: '{target}: הופעלה על ידי {actor}, {operation}',
    en: '{target}: started by {actor}, {operation}',
  },
  // Kept out of the log (ADR 0090): the target's own entry tells it; should one appear, it still reads.
  BulkTargetDone: { he: '{target}: הפעולה בוצעה ליעד', en: '{target}: done for one target' },
  BulkTargetFailed: { he: '{target}: הפעולה נכשלה ליעד', en: '{target}: failed for one target' },
  BulkBatchCompleted: {
    he: '{target}: הסתיימה, {doneCount} בוצעו ו-{failedCount} נכשלו',
    en: '{target}: finished, {doneCount} done and {failedCount} failed',
  },
  BroadcastSent: {
    he: '{target}: נשלחה על ידי {actor} אל {recipientCount} לקוחות',
    en: '{target}: sent by {actor} to {recipientCount} clients',
  },
  ManualTransferClaimed: {
    he: '{target}: דיווח שהעביר/ה כסף בהעברה ידנית',
    en: '{target}: says they sent a manual transfer',
  },
  ManualTransferClaimSettled: {
    he: '{target}: הדיווח על העברה ידנית הוסדר על ידי {actor} בהפקדה ידנית',
    en: '{target}: manual transfer claim settled by {actor} with a manual deposit',
  },
  ManualTransferClaimRejected: {
    he: '{target}: הדיווח על העברה ידנית נדחה על ידי {actor}',
    en: '{target}: manual transfer claim rejected by {actor}',
  },
  LargeDepositAcknowledged: {
    he: '{target} של {parent}: ההפקדה הגדולה סומנה כנבדקה על ידי {actor}',
    en: '{target} of {parent}: large deposit marked as seen by {actor}',
  },
  BroadcastHandedOff: {
    he: '{target}: כל הנמענים הועברו לתור הדואר ({handedCount} הודעות)',
    en: '{target}: every recipient handed to the mail outbox ({handedCount} mails)',
  },
  TelegramLinked: { he: '{target}: חשבון טלגרם קושר', en: '{target}: Telegram account linked' },
  TelegramUnlinked: { he: '{target}: חשבון טלגרם נותק', en: '{target}: Telegram account unlinked' },
  NotificationPreferencesChanged: {
    he: '{target}: העדפות ההתראות שונו: {changes}',
    en: '{target}: notification preferences changed: {changes}',
  },
  PaymentPlanCreated: {
    he: '{target}: נוצרה במחיר {price}, סטטוס {status}',
    en: '{target}: created at {price}, status {status}',
  },
  PaymentPlanUpdated: { he: '{target}: {changes}', en: '{target}: {changes}' },
  PaymentPlanStatusChanged: { he: '{target}: {changes}', en: '{target}: {changes}' },
  PaymentPlanDeleted: { he: '{target}: החבילה נמחקה', en: '{target}: deleted' },
  SubscriptionPurchased: {
    he: '{target} של {parent}: נרכש בסך {price}, סטטוס {status}',
    en: '{target} of {parent}: bought for {price}, status {status}',
  },
  SubscriptionActivated: { he: '{target} של {parent}: {changes}', en: '{target} of {parent}: {changes}' },
  SubscriptionRenewed: {
    he: '{target} של {parent}: חודש בסך {price} עד {endDate}',
    en: '{target} of {parent}: renewed for {price} until {endDate}',
  },
  SubscriptionRenewalFailed: {
    he: '{target} של {parent}: החידוש האוטומטי נכשל, חסר {missingAmount}',
    en: '{target} of {parent}: automatic renewal failed, {missingAmount} missing',
  },
  SubscriptionCancelled: {
    he: '{target} של {parent}: בוטל, פעיל עד תום התקופה',
    en: '{target} of {parent}: cancelled, active to the end of its period',
  },
  SubscriptionResumed: {
    he: '{target} של {parent}: הביטול בוטל, המנוי ממשיך',
    en: '{target} of {parent}: cancellation withdrawn, the subscription goes on',
  },
  SubscriptionRecurrenceDeactivated: {
    he: '{target} של {parent}: החידוש האוטומטי הופסק',
    en: '{target} of {parent}: automatic renewal stopped',
  },
  SubscriptionEnded: { he: '{target} של {parent}: {changes}', en: '{target} of {parent}: {changes}' },
  SubscriptionLoginChanged: { he: '{target} של {parent}: {changes}', en: '{target} of {parent}: {changes}' },
  SubscriptionPasswordChanged: {
    he: '{target} של {parent}: הסיסמה בשירות הסטרימינג שונתה',
    en: '{target} of {parent}: streaming password changed',
  },
  SubscriptionProvisioningFailed: {
    he: '{target} של {parent}: הקמת החשבון בשירות הסטרימינג נכשלה, {changes}',
    en: '{target} of {parent}: the streaming account could not be set up, {changes}',
  },
  SubscriptionLapsed: {
    he: '{target} של {parent}: לא שולם בזמן, מושהה עד {graceEndsAt}',
    en: '{target} of {parent}: unpaid at its end, paused until {graceEndsAt}',
  },
  SubscriptionRenewalFundingChanged: { he: '{target} של {parent}: {changes}', en: '{target} of {parent}: {changes}' },
  SubscriptionCardRenewalStarted: {
    he: '{target} של {parent}: הכרטיס השמור מחויב ב-{cardChargeAmount} לחידוש',
    en: '{target} of {parent}: the saved card is charged {cardChargeAmount} for the renewal',
  },
  SubscriptionCardRenewalPending: {
    he: '{target} של {parent}: חיוב הכרטיס לחידוש עדיין בעיבוד אצל ספק הכרטיסים',
    en: '{target} of {parent}: the card charge for the renewal is still processing at the card provider',
  },
  SubscriptionCardRenewalFailed: {
    he: '{target} של {parent}: חיוב הכרטיס לחידוש נכשל, {cardChargeFailure}',
    en: '{target} of {parent}: the card charge for the renewal failed, {cardChargeFailure}',
  },
  SubscriptionCardRenewalSettled: {
    he: '{target} של {parent}: חיוב הכרטיס לחידוש התקבל ונזקף ליתרה',
    en: '{target} of {parent}: the card charge for the renewal arrived on the balance',
  },
  CardCustomerCreated: {
    he: '{target}: נפתח לקוח אצל ספק הכרטיסים',
    en: '{target}: a customer was created at the card provider',
  },
  CardSaved: { he: '{target}: כרטיס נשמר, {savedCard}', en: '{target}: card saved, {savedCard}' },
  CardRemoved: { he: '{target}: הכרטיס השמור הוסר', en: '{target}: saved card removed' },
  SubscriptionExtended: {
    he: '{target} של {parent}: {extension} על ידי {actor}, עד {endDate}',
    en: '{target} of {parent}: {extension} by {actor}, until {endDate}',
  },
  PromoCodeCreated: { he: '{target} נוצר: {changes}', en: '{target} created: {changes}' },
  PromoCodeDisabled: { he: '{target} הושבת', en: '{target} disabled' },
  PromoCodeRedeemed: { he: '{target}: {changes}', en: '{target}: {changes}' },
  PromoCodeReserved: { he: '{target} נשמר לתשלום: {changes}', en: '{target} held for a payment: {changes}' },
  PromoCodeReservationReleased: { he: '{target} שוחרר: {changes}', en: '{target} released: {changes}' },
});

/**
 * Sentences an event reads in when the fields they name are there, tried before its own: a subscription a day voucher
 * started was not bought (ADR 0089), "started with a voucher, +30 days: voucher ⟨label⟩, status Pending".
 */
export const EVENT_SENTENCE_VARIANTS: Readonly<Partial<Record<EventType, readonly Bilingual[]>>> = Object.freeze({
  SubscriptionPurchased: [
    {
      he: '{target} של {parent}: נפתח בשובר, {voucher}, סטטוס {status}',
      en: '{target} of {parent}: started with a voucher, {voucher}, status {status}',
    },
  ],
  // Only when someone had switched announcements off: "…, 0 of whom" says nothing.
  BroadcastSent: [
    {
      he: '{target}: נשלחה על ידי {actor} אל {recipientCount} לקוחות, מתוכם {skippedCount} שביקשו לא לקבל הודעות',
      en: '{target}: sent by {actor} to {recipientCount} clients, {skippedCount} of whom had switched announcements off',
    },
  ],
});

/** The sentence of an event without its own (a type this build does not know, or a sentence it cannot fill). */
export const FALLBACK_SENTENCE: Bilingual = Object.freeze({ he: '{target}: {event}', en: '{target}: {event}' });

/** Shown as `{event}` for a type this build does not know: what happened to the target. */
export const OPERATION_EVENT_LABELS: Readonly<Record<AuditOperationType, Bilingual>> = Object.freeze({
  CREATED: { he: 'נוצר', en: 'created' },
  UPDATED: { he: 'עודכן', en: 'updated' },
  DELETED: { he: 'נמחק', en: 'deleted' },
});

/**
 * How a field's value reads: an enum's label, an amount of dollars, an instant, yes or no, or text. `ltr` text
 * (e-mails, ids) is isolated left to right inside Hebrew sentences; other text keeps its own direction.
 */
export type AuditValueKind =
  | { kind: 'enum'; enumName: EnumName }
  | { kind: 'money' }
  | { kind: 'instant' }
  | { kind: 'boolean' }
  | { kind: 'text'; ltr: boolean }
  | { kind: 'list' }
  /** A cashier's or card provider's own status word (`partially_paid`, `unpaid`), told in people's words. */
  | { kind: 'providerStatus' }
  /** A cashier's coin code (`usdttrc20`, `btc`), told as the coin's name. */
  | { kind: 'payCurrency' }
  /** Which outside provider (`NOWPAYMENTS`, `SANDBOX`, `STRIPE`), by its name. */
  | { kind: 'provider' }
  /** Days added to a subscription, `{days, reason, source}`: "+2 days: a goodwill gesture", "+30 days: voucher …". */
  | { kind: 'extension' }
  /** A whole number, grouped as the language writes it ("1,234"). */
  | { kind: 'count' }
  /** Notification channels (`email`, `telegram`, `portal`) by their names; none at all reads "off" (ADR 0105). */
  | { kind: 'channels' }
  /** What a bulk batch does, `{action, targetKind, targetCount, days, amount}`: "+2 days to 1,234 subscriptions". */
  | { kind: 'bulkOperation' };

export interface AuditFieldText {
  label: Bilingual;
  value: AuditValueKind;
}

const TEXT: AuditValueKind = { kind: 'text', ltr: false };
const LTR_TEXT: AuditValueKind = { kind: 'text', ltr: true };
const INSTANT: AuditValueKind = { kind: 'instant' };
const BOOLEAN: AuditValueKind = { kind: 'boolean' };
const LIST: AuditValueKind = { kind: 'list' };
const COUNT: AuditValueKind = { kind: 'count' };

/** The activity-log field of a kind's channels: `channels.payments`. */
export function notificationChannelsField(kind: NotificationPreferenceKind): string {
  return `channels.${kind}`;
}

const NOTIFICATION_CHANNEL_FIELDS: Readonly<Record<string, AuditFieldText>> = Object.fromEntries(
  NOTIFICATION_PREFERENCE_KINDS.map((kind): [string, AuditFieldText] => [
    notificationChannelsField(kind),
    {
      label: {
        he: `ערוצי ${NOTIFICATION_PREFERENCE_KIND_LABELS[kind].he}`,
        en: `channels for ${NOTIFICATION_PREFERENCE_KIND_LABELS[kind].en}`,
      },
      value: { kind: 'channels' },
    },
  ]),
);

/** Targets that are people share their fields (a person's target type follows their role). */
export type AuditFieldGroup =
  'USER' | 'PAYMENT' | 'PACKAGE' | 'SUBSCRIPTION' | 'PROMO_CODE' | 'VOUCHER_BATCH' | 'BULK_BATCH' | 'BROADCAST';

export function auditFieldGroupOf(targetType: AuditTargetType): AuditFieldGroup | null {
  if (targetType === 'ADMIN' || targetType === 'MANAGER' || targetType === 'CLIENT') return 'USER';
  if (targetType === 'PAYMENT') return 'PAYMENT';
  if (targetType === 'PACKAGE') return 'PACKAGE';
  if (targetType === 'SUBSCRIPTION') return 'SUBSCRIPTION';
  if (targetType === 'PROMO_CODE') return 'PROMO_CODE';
  if (targetType === 'VOUCHER_BATCH') return 'VOUCHER_BATCH';
  if (targetType === 'BULK_BATCH') return 'BULK_BATCH';
  if (targetType === 'BROADCAST') return 'BROADCAST';
  return null;
}

/**
 * Every field the API's audit mappers write, per target group (services/api/src/contexts/*\/*.audit.ts; an API spec
 * checks that every field they produce is listed here). Notes are written as `note.{noteId}`: `NOTE_FIELD_PREFIX`.
 */
export const AUDIT_FIELDS: Readonly<Record<AuditFieldGroup, Readonly<Record<string, AuditFieldText>>>> = Object.freeze({
  USER: {
    email: { label: { he: 'דוא״ל', en: 'e-mail' }, value: LTR_TEXT },
    firstName: { label: { he: 'שם פרטי', en: 'first name' }, value: TEXT },
    lastName: { label: { he: 'שם משפחה', en: 'last name' }, value: TEXT },
    role: { label: { he: 'תפקיד', en: 'role' }, value: { kind: 'enum', enumName: 'userRole' } },
    status: { label: { he: 'סטטוס', en: 'status' }, value: { kind: 'enum', enumName: 'userStatus' } },
    profileId: { label: { he: 'מזהה פרופיל', en: 'profile ID' }, value: LTR_TEXT },
    language: { label: { he: 'שפה', en: 'language' }, value: { kind: 'enum', enumName: 'language' } },
    referrerProfileId: { label: { he: 'מזהה הפרופיל של הממליץ', en: "referrer's profile ID" }, value: LTR_TEXT },
    passwordChangedAt: { label: { he: 'הסיסמה שונתה', en: 'password changed' }, value: INSTANT },
    sessionsEndedCount: { label: { he: 'התחברויות שנותקו', en: 'sessions ended' }, value: COUNT },
    sessionsEndedReason: { label: { he: 'סיבת הניתוק', en: 'reason for ending' }, value: LTR_TEXT },
    sessionsEndedNote: { label: { he: 'הערה לניתוק', en: 'note on ending' }, value: TEXT },
    twoFactorEnabled: { label: { he: 'אימות דו-שלבי', en: 'two-factor sign-in' }, value: BOOLEAN },
    telegramLinked: { label: { he: 'טלגרם מקושר', en: 'Telegram linked' }, value: BOOLEAN },
    telegramUsername: { label: { he: 'שם משתמש בטלגרם', en: 'Telegram username' }, value: LTR_TEXT },
    // Notification preferences (ADR 0105): the channels of each kind, lead days, threshold and quiet hours.
    ...NOTIFICATION_CHANNEL_FIELDS,
    reminderLeadDays: { label: { he: 'ימי התראה לפני חידוש', en: 'reminder lead days' }, value: COUNT },
    lowBalanceThreshold: { label: { he: 'סף יתרה נמוכה', en: 'low-balance threshold' }, value: { kind: 'money' } },
    quietHours: { label: { he: 'שעות שקטות', en: 'quiet hours' }, value: LTR_TEXT },
    trialRejected: { label: { he: 'ויתור על תקופת הניסיון', en: 'trial declined' }, value: BOOLEAN },
    trialUsed: { label: { he: 'תקופת הניסיון נוצלה', en: 'trial used' }, value: BOOLEAN },
    confirmationMailRequestedAt: {
      label: { he: 'בקשה לדוא״ל אימות', en: 'confirmation e-mail requested' },
      value: INSTANT,
    },
    passwordResetRequestedAt: { label: { he: 'בקשה לאיפוס סיסמה', en: 'password reset requested' }, value: INSTANT },
    emailChangeTo: { label: { he: 'כתובת חדשה שהתבקשה', en: 'new e-mail asked for' }, value: LTR_TEXT },
    emailChangeRequestedAt: { label: { he: 'בקשה לשינוי דוא״ל', en: 'e-mail change requested' }, value: INSTANT },
    note: { label: { he: 'הערה', en: 'note' }, value: TEXT },
    savedCard: { label: { he: 'כרטיס שמור', en: 'saved card' }, value: LTR_TEXT },
    viewAsId: { label: { he: 'מזהה הצפייה', en: 'view ID' }, value: LTR_TEXT },
    viewAsPage: { label: { he: 'דף שנצפה', en: 'page viewed' }, value: LTR_TEXT },
    viewedAsAt: { label: { he: 'מועד הצפייה', en: 'viewed at' }, value: INSTANT },
  },
  PAYMENT: {
    status: { label: { he: 'סטטוס', en: 'status' }, value: { kind: 'enum', enumName: 'paymentStatus' } },
    amount: { label: { he: 'סכום', en: 'amount' }, value: { kind: 'money' } },
    type: { label: { he: 'סוג', en: 'type' }, value: { kind: 'enum', enumName: 'paymentType' } },
    method: { label: { he: 'אמצעי', en: 'method' }, value: { kind: 'enum', enumName: 'paymentMethod' } },
    aggregator: { label: { he: 'ספק', en: 'aggregator' }, value: { kind: 'enum', enumName: 'paymentAggregator' } },
    comment: { label: { he: 'הערה', en: 'comment' }, value: TEXT },
    publicNote: { label: { he: 'הודעה ללקוח', en: 'note to the client' }, value: TEXT },
    bonusForPaymentId: { label: { he: 'בונוס על ההפקדה', en: 'bonus on deposit' }, value: LTR_TEXT },
    provider: { label: { he: 'ספק התשלום', en: 'payment provider' }, value: { kind: 'provider' } },
    invoiceId: { label: { he: 'מספר חשבונית', en: 'invoice ID' }, value: LTR_TEXT },
    checkoutSessionId: { label: { he: 'מזהה התשלום בכרטיס', en: 'card checkout ID' }, value: LTR_TEXT },
    payCurrency: { label: { he: 'מטבע התשלום', en: 'pay currency' }, value: { kind: 'payCurrency' } },
    providerPaymentId: { label: { he: 'מזהה התשלום אצל הספק', en: 'provider payment ID' }, value: LTR_TEXT },
    providerStatus: { label: { he: 'סטטוס אצל הספק', en: 'provider status' }, value: { kind: 'providerStatus' } },
    amountAsked: { label: { he: 'סכום שנדרש', en: 'amount asked' }, value: { kind: 'money' } },
    amountReceived: { label: { he: 'סכום שהתקבל', en: 'amount received' }, value: { kind: 'money' } },
    discountPercent: { label: { he: 'הנחת הפניות (%)', en: 'referral discount (%)' }, value: TEXT },
    bonusPaymentId: { label: { he: 'בונוס שגריר', en: 'ambassador bonus' }, value: LTR_TEXT },
    purchaseKind: {
      label: { he: 'רכישה מההפקדה', en: 'purchase by the deposit' },
      value: { kind: 'enum', enumName: 'depositPurchaseKind' },
    },
    purchasePlan: { label: { he: 'חבילה לרכישה', en: 'package to buy' }, value: TEXT },
    purchasePrice: { label: { he: 'מחיר הרכישה', en: 'purchase price' }, value: { kind: 'money' } },
    purchaseStatus: {
      label: { he: 'סטטוס הרכישה', en: 'purchase status' },
      value: { kind: 'enum', enumName: 'depositPurchaseStatus' },
    },
    purchaseSubscriptionId: { label: { he: 'המנוי שנרכש', en: 'subscription' }, value: LTR_TEXT },
    purchaseError: { label: { he: 'סיבת כישלון הרכישה', en: 'why the purchase failed' }, value: LTR_TEXT },
    refundedAmount: { label: { he: 'הוחזר ליתרה', en: 'refunded to the balance' }, value: { kind: 'money' } },
    refundPaymentId: { label: { he: 'תשלום ההחזר', en: 'refund payment' }, value: LTR_TEXT },
    refundReason: { label: { he: 'סיבת ההחזר', en: 'refund reason' }, value: TEXT },
    refundEndedSubscription: { label: { he: 'המנוי הסתיים מיד', en: 'subscription ended now' }, value: BOOLEAN },
    largeDepositSeenAt: { label: { he: 'הפקדה גדולה נבדקה', en: 'large deposit seen' }, value: INSTANT },
  },
  PACKAGE: {
    name: { label: { he: 'שם', en: 'name' }, value: TEXT },
    durationInMonths: { label: { he: 'משך', en: 'duration' }, value: { kind: 'enum', enumName: 'planDuration' } },
    price: { label: { he: 'מחיר', en: 'price' }, value: { kind: 'money' } },
    currency: { label: { he: 'מטבע', en: 'currency' }, value: { kind: 'enum', enumName: 'currency' } },
    isRecurrent: { label: { he: 'חידוש אוטומטי', en: 'renews automatically' }, value: BOOLEAN },
    description: { label: { he: 'תיאור', en: 'description' }, value: TEXT },
    features: { label: { he: 'מאפיינים', en: 'features' }, value: LIST },
    status: { label: { he: 'סטטוס', en: 'status' }, value: { kind: 'enum', enumName: 'planStatus' } },
    cardPaymentAllowed: { label: { he: 'ניתן לקנות בכרטיס', en: 'can be bought by card' }, value: BOOLEAN },
    nameEn: { label: { he: 'שם באנגלית', en: 'English name' }, value: LTR_TEXT },
    descriptionEn: { label: { he: 'תיאור באנגלית', en: 'English description' }, value: LTR_TEXT },
  },
  SUBSCRIPTION: {
    status: { label: { he: 'סטטוס', en: 'status' }, value: { kind: 'enum', enumName: 'subscriptionStatus' } },
    type: { label: { he: 'סוג', en: 'type' }, value: { kind: 'enum', enumName: 'subscriptionType' } },
    planName: { label: { he: 'חבילה', en: 'package' }, value: TEXT },
    price: { label: { he: 'מחיר', en: 'price' }, value: { kind: 'money' } },
    discountPercent: { label: { he: 'הנחה (%)', en: 'discount (%)' }, value: TEXT },
    isRecurrent: { label: { he: 'חידוש אוטומטי', en: 'renews automatically' }, value: BOOLEAN },
    login: { label: { he: 'שם משתמש', en: 'login' }, value: LTR_TEXT },
    startDate: { label: { he: 'תאריך התחלה', en: 'start date' }, value: INSTANT },
    endDate: { label: { he: 'תאריך סיום', en: 'end date' }, value: INSTANT },
    cancelAtPeriodEnd: { label: { he: 'מבוטל בתום התקופה', en: 'cancelled at period end' }, value: BOOLEAN },
    missingAmount: { label: { he: 'סכום חסר', en: 'amount missing' }, value: { kind: 'money' } },
    passwordChangedAt: { label: { he: 'הסיסמה שונתה', en: 'password changed' }, value: INSTANT },
    failureReason: { label: { he: 'סיבת הכישלון', en: 'failure reason' }, value: TEXT },
    graceEndsAt: { label: { he: 'מושהה עד', en: 'paused until' }, value: INSTANT },
    renewalFunding: {
      label: { he: 'תשלום החידוש', en: 'renewal paid by' },
      value: { kind: 'enum', enumName: 'renewalFunding' },
    },
    cardChargeAmount: { label: { he: 'חיוב כרטיס', en: 'card charge' }, value: { kind: 'money' } },
    cardChargeFailure: {
      label: { he: 'סיבת כישלון החיוב', en: 'why the charge failed' },
      value: { kind: 'enum', enumName: 'cardRenewalFailure' },
    },
    cardChargeSettled: { label: { he: 'חיוב הכרטיס התקבל', en: 'card charge received' }, value: BOOLEAN },
    extension: { label: { he: 'ימים שנוספו', en: 'days added' }, value: { kind: 'extension' } },
    voucher: { label: { he: 'נפתח בשובר', en: 'started with a voucher' }, value: { kind: 'extension' } },
  },
  PROMO_CODE: {
    percentOff: { label: { he: 'הנחה (%)', en: 'discount (%)' }, value: TEXT },
    amountOff: { label: { he: 'סכום הנחה', en: 'amount off' }, value: { kind: 'money' } },
    appliesTo: { label: { he: 'תקף ל', en: 'for' }, value: LIST },
    packages: { label: { he: 'חבילות', en: 'packages' }, value: LIST },
    validFrom: { label: { he: 'בתוקף מ', en: 'valid from' }, value: INSTANT },
    validUntil: { label: { he: 'בתוקף עד', en: 'valid until' }, value: INSTANT },
    maxUses: { label: { he: 'מספר שימושים', en: 'uses allowed' }, value: TEXT },
    maxUsesPerClient: { label: { he: 'שימושים ללקוח', en: 'uses per client' }, value: TEXT },
    newClientsOnly: { label: { he: 'ללקוחות חדשים בלבד', en: 'new clients only' }, value: BOOLEAN },
    payment: { label: { he: 'תשלום', en: 'payment' }, value: LTR_TEXT },
    price: { label: { he: 'מחיר ששולם', en: 'price paid' }, value: { kind: 'money' } },
    discount: { label: { he: 'הנחה', en: 'discount' }, value: { kind: 'money' } },
    disabled: { label: { he: 'מושבת', en: 'disabled' }, value: BOOLEAN },
    heldUntil: { label: { he: 'שמור עד', en: 'held until' }, value: INSTANT },
    released: { label: { he: 'שוחרר', en: 'released' }, value: BOOLEAN },
  },
  // A batch's codes never enter the log (ADR 0089): a redemption names the code by its number in the codes file.
  VOUCHER_BATCH: {
    label: { label: { he: 'שם', en: 'label' }, value: TEXT },
    count: { label: { he: 'מספר שוברים', en: 'vouchers' }, value: TEXT },
    amount: { label: { he: 'סכום', en: 'amount' }, value: { kind: 'money' } },
    comment: { label: { he: 'הערה', en: 'comment' }, value: TEXT },
    codeNumber: { label: { he: 'מספר הקוד בקובץ הקודים', en: 'code no. in the codes file' }, value: LTR_TEXT },
    payment: { label: { he: 'תשלום', en: 'payment' }, value: LTR_TEXT },
  },
  // A batch's targets are not listed (ADR 0090): each one's own entry tells what was done to it.
  BULK_BATCH: {
    reason: { label: { he: 'סיבה', en: 'reason' }, value: TEXT },
    operation: { label: { he: 'פעולה', en: 'operation' }, value: { kind: 'bulkOperation' } },
    publicNote: { label: { he: 'הודעה ללקוח', en: 'note to the client' }, value: TEXT },
    doneCount: { label: { he: 'בוצעו', en: 'done' }, value: COUNT },
    failedCount: { label: { he: 'נכשלו', en: 'failed' }, value: COUNT },
  },
  // A broadcast's bodies and recipients stay in its tables (ADR 0091); the log says who sent what to how many.
  BROADCAST: {
    subjectHe: { label: { he: 'נושא בעברית', en: 'Hebrew subject' }, value: TEXT },
    subjectEn: { label: { he: 'נושא באנגלית', en: 'English subject' }, value: TEXT },
    recipientCount: { label: { he: 'נמענים', en: 'recipients' }, value: COUNT },
    skippedCount: { label: { he: 'ביקשו לא לקבל הודעות', en: 'switched announcements off' }, value: COUNT },
    handedCount: { label: { he: 'הועברו לתור הדואר', en: 'handed to the mail outbox' }, value: COUNT },
  },
});

/** Notes are one field per note (`note.{noteId}`), so each note's text has its own before and after. */
export const NOTE_FIELD_PREFIX = 'note.';

/** The field's entry in `AUDIT_FIELDS`, if the target's group lists it. */
export function auditFieldText(targetType: AuditTargetType, field: string): AuditFieldText | null {
  const group = auditFieldGroupOf(targetType);
  if (!group) return null;
  const name = group === 'USER' && field.startsWith(NOTE_FIELD_PREFIX) ? 'note' : field;
  return Object.prototype.hasOwnProperty.call(AUDIT_FIELDS[group], name) ? AUDIT_FIELDS[group][name] : null;
}

/** Words the activity log puts around values. */
export const AUDIT_WORDS = Object.freeze({
  empty: { he: '(ריק)', en: '(empty)' },
  yes: { he: 'כן', en: 'Yes' },
  no: { he: 'לא', en: 'No' },
  /** Between a value before and after a change; it points from the old value to the new one in reading order. */
  changeArrow: { he: '←', en: '→' },
  changeSeparator: { he: ', ', en: ', ' },
  /** A kind of notification on no channel at all. */
  noChannel: { he: 'כבוי', en: 'off' },
  /** The author of entries no person caused (`SYSTEM_ACTOR_NAME`). */
  system: { he: 'המערכת', en: 'System' },
} satisfies Record<string, Bilingual>);

/**
 * What each system account is, as the other side of a posting in an account history (docs/product.md, Ledger).
 * A user account is named by its holder instead.
 */
export const SYSTEM_ACCOUNT_LABELS: Readonly<Record<SystemAccount, Bilingual>> = Object.freeze({
  'world:stripe': { he: 'תשלומי כרטיס (Stripe)', en: 'Card payments (Stripe)' },
  'world:cashier': { he: 'קופת הקריפטו', en: 'Crypto cashier' },
  'world:sandbox-cashier': { he: 'קופת הניסוי (לא כסף אמיתי)', en: 'Sandbox cashier (not real money)' },
  'world:sandbox-card': { he: 'כרטיס הניסוי (לא כסף אמיתי)', en: 'Sandbox card (not real money)' },
  'world:manual': { he: 'הפקדות ומשיכות ידניות', en: 'Manual deposits and withdrawals' },
  'revenue:subscriptions': { he: 'הכנסות ממנויים', en: 'Subscription sales' },
  'expense:bonus': { he: 'בונוסים לשגרירים', en: 'Ambassador bonuses' },
  'expense:adjustment': { he: 'תיקוני יתרה', en: 'Balance corrections' },
  'expense:refund': { he: 'החזרים', en: 'Refunds' },
  'expense:promo': { he: 'שוברים שניתנו במתנה', en: 'Vouchers given away' },
  'expense:goodwill': { he: 'זיכויי רצון טוב', en: 'Goodwill credits' },
  'liability:vouchers': { he: 'שוברים שטרם מומשו', en: 'Vouchers not yet redeemed' },
});

/** A user account whose holder the answer does not name (an account that no longer exists). */
export const USER_ACCOUNT_LABEL: Bilingual = Object.freeze({ he: 'יתרת לקוח', en: 'Client balance' });

/** The readable name of a ledger account: the system account's name, or the holder's name for a user account. */
export function ledgerAccountLabel(account: string, holderName: string | null, lang: Language): string {
  if ((SYSTEM_ACCOUNTS as readonly string[]).includes(account))
    return SYSTEM_ACCOUNT_LABELS[account as SystemAccount][lang];
  return holderName ?? USER_ACCOUNT_LABEL[lang];
}

/** The short name of an event type, or the type itself when this build does not know it. */
export function eventTypeLabel(eventType: string, lang: Language): string {
  return Object.prototype.hasOwnProperty.call(EVENT_TYPE_LABELS, eventType)
    ? EVENT_TYPE_LABELS[eventType as EventType][lang]
    : eventType;
}
