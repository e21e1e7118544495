import { clientEnumLabel, formatClientErrorMessage, type Language, type Payment } from '@kupa/proto';
import { formatDollars } from '../../lib/format';
import { translate } from '../../lib/i18n/i18n';

/**
 * Whether a deposit has said all it will: its money settled (or it closed without any) and, for a deposit that buys
 * or renews, the purchase that follows the money is done or has failed.
 */
export function depositOutcomeKnown(payment: Payment): boolean {
  if (payment.status === 'PENDING') return false;
  return payment.status !== 'SUCCESS' || !payment.purchase || payment.purchase.status !== 'WAITING';
}

/** What the money of a settled deposit did: how much was credited (and of how much asked), as one sentence. */
export function creditedSentence(payment: Payment, lang: Language): string {
  // The provider reported other money than was asked: held for Kupa's staff, not ended (ADR 0058).
  if (payment.status === 'REVIEW') return translate(lang, 'deposit.review');
  if (payment.status !== 'SUCCESS')
    return translate(lang, 'deposit.crypto.closed', { status: clientEnumLabel('paymentStatus', payment.status, lang) });
  const cashier = payment.cashier;
  if (!cashier) return translate(lang, 'deposit.crypto.settled', { amount: formatDollars(payment.amount, lang) });
  const received = formatDollars(cashier.amountReceived, lang);
  const asked = formatDollars(cashier.amountAsked, lang);
  if (cashier.amountReceived < cashier.amountAsked)
    return translate(lang, 'deposit.crypto.settledPartial', { received, asked });
  if (cashier.amountReceived > cashier.amountAsked)
    return translate(lang, 'deposit.crypto.settledOver', { received, asked });
  return translate(lang, 'deposit.crypto.settled', { amount: received });
}

/**
 * What became of the purchase a deposit pays for (deposit-and-buy, deposit-and-renew, a card checkout), as one
 * sentence; null for a plain deposit. A failed purchase names the reason (`error.plan.no.longer.available`, …) and
 * says the money stays on the balance.
 */
export function purchaseSentence(payment: Payment, lang: Language): string | null {
  const purchase = payment.purchase;
  if (!purchase) return null;
  // Isolated (FSI…PDI): a Hebrew package name inside an English sentence, or the reverse, keeps the sentence's order.
  const plan = `\u2068${purchase.planName}\u2069`;
  const buy = purchase.kind === 'BUY';
  switch (purchase.status) {
    case 'WAITING':
      return translate(lang, buy ? 'deposit.purchase.waitingBuy' : 'deposit.purchase.waitingRenew', { plan });
    case 'DONE':
      return translate(lang, buy ? 'deposit.purchase.bought' : 'deposit.purchase.renewed', { plan });
    case 'FAILED': {
      // The catalogue's messages stand alone without a full stop; here one ends the reason before the next sentence.
      const message = formatClientErrorMessage(purchase.errorCode ?? 'error.payment.failed', lang);
      const reason = /[.!?]$/.test(message) ? message : `${message}.`;
      return translate(lang, buy ? 'deposit.purchase.failedBuy' : 'deposit.purchase.failedRenew', { plan, reason });
    }
  }
}

/** The notice for a deposit whose outcome is known: a title, the sentence, and how it reads (success or warning). */
export function depositNotice(
  payment: Payment,
  lang: Language,
): { severity: 'success' | 'warning'; title: string; message: string } {
  if (payment.status !== 'SUCCESS')
    return {
      severity: 'warning',
      title: translate(lang, 'deposit.notice.closedTitle'),
      message: creditedSentence(payment, lang),
    };
  const purchase = purchaseSentence(payment, lang);
  return {
    severity: payment.purchase?.status === 'FAILED' ? 'warning' : 'success',
    title: translate(lang, 'deposit.title'),
    message: purchase ? `${creditedSentence(payment, lang)} ${purchase}` : creditedSentence(payment, lang),
  };
}
