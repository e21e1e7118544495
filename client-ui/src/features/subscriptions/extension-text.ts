import type { SubscriptionExtensionNote, SubscriptionExtensionSource } from '@kupa/proto';
import type { Translate } from '../../lib/i18n/i18n';

/** Why days were added, as the client reads it: the reason staff wrote, or "voucher ⟨label⟩" for a day voucher. */
export function extensionReason(source: SubscriptionExtensionSource | undefined, reason: string, t: Translate): string {
  return source === 'VOUCHER' ? t('subscription.extension.voucher', { label: reason }) : reason;
}

/** "+2 days: a goodwill gesture" (ADR 0089); the activity log says the same to staff, with who added them. */
export function extensionText(extension: SubscriptionExtensionNote, t: Translate): string {
  const reason = extensionReason(extension.source, extension.reason, t);
  return extension.days === 1
    ? t('subscription.extension.oneDay', { reason })
    : t('subscription.extension.days', { days: extension.days, reason });
}
