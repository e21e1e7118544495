import { checkRecipient, checkRequired, firstIssue, minorToAmount, type RuleIssue, type User } from '@kupa/proto';
import { parseAmountInput } from '../amount-input';

export interface TransferValues {
  recipient: string;
  amount: string;
}

export type TransferField = keyof TransferValues;

/** A transfer that passed every check the client can make, with the amount in cents. */
export interface CheckedTransfer {
  recipient: string;
  amountMinor: number;
}

export type TransferCheck =
  { ok: true; transfer: CheckedTransfer } | { ok: false; issues: Partial<Record<TransferField, RuleIssue>> };

/**
 * Proto's rules for a transfer (docs/product.md, Business constants): the recipient is an e-mail or an 8-digit profile
 * ID and not the sender, the amount is a positive amount of at most two decimals and 99999.99. With the user known, an
 * amount above the balance is refused here too; the server stays the authority on both.
 */
export function checkTransfer(
  values: TransferValues,
  me: Pick<User, 'balance' | 'email' | 'profileId'> | undefined,
): TransferCheck {
  const issues: Partial<Record<TransferField, RuleIssue>> = {};
  const recipient = values.recipient.trim();
  const recipientIssue = firstIssue(recipient, checkRequired, checkRecipient);
  if (recipientIssue) issues.recipient = recipientIssue;
  else if (me && (recipient === me.profileId || recipient.toLowerCase() === me.email.toLowerCase())) {
    issues.recipient = { error: 'error.transfer.to.self' };
  }

  const amount = parseAmountInput(values.amount);
  if (!amount.ok) issues.amount = amount.issue;
  // Both sides are two-decimal dollar values, which compare exactly as the same nearest doubles.
  else if (me && minorToAmount(amount.amountMinor) > me.balance)
    issues.amount = { error: 'error.insufficient.balance' };

  if (issues.recipient || issues.amount || !amount.ok) return { ok: false, issues };
  return { ok: true, transfer: { recipient, amountMinor: amount.amountMinor } };
}

export function sameTransfer(a: CheckedTransfer, b: CheckedTransfer): boolean {
  return a.recipient === b.recipient && a.amountMinor === b.amountMinor;
}
