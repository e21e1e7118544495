import type { RateLimitRules } from '../../../platform/http';

/**
 * Both the recipient look-up and a transfer tell whether an e-mail or a profile ID belongs to an account one may send
 * to, so they share counters: guessing through either spends the same allowance (docs/adr/0008-rate-limits.md).
 */
const RECIPIENT_SCOPE = 'transfer-recipient';

/** Every look-up counts, per signed-in account and per client address: a found name is what a guesser is after. */
export const RECIPIENT_LOOKUP_LIMITS: RateLimitRules = ({ rateLimits }) => [
  { name: 'per-account', key: 'account', scope: RECIPIENT_SCOPE, ...rateLimits.recipientLookupsPerAccount },
  { name: 'per-address', key: 'ip', scope: RECIPIENT_SCOPE, ...rateLimits.recipientLookupsPerAddress },
];

/**
 * A transfer counts against the same allowance only once it ended finding no recipient, so sending money to people
 * one knows never spends it, and a burst of transfers holds no places while it runs; once the allowance is spent,
 * transfers wait too.
 */
export const TRANSFER_RECIPIENT_LIMITS: RateLimitRules = (config) =>
  RECIPIENT_LOOKUP_LIMITS(config).map((rule) => ({
    ...rule,
    countsOnly: 'error.user.not.found',
    countedWhenEnded: true,
  }));

/** A redemption and a preview both look a code up, so they share counters: guessing through either spends them. */
const VOUCHER_CODE_SCOPE = 'voucher-code';

/**
 * A wrong voucher code counts, per signed-in account and per client address, in counters every API process shares;
 * a code that redeems, or one already used, spends nothing (docs/adr/0089-prepaid-vouchers.md). `POST
 * /vouchers/preview` counts in the same counters.
 */
export const VOUCHER_REDEMPTION_LIMITS: RateLimitRules = ({ rateLimits }) => [
  {
    name: 'per-account',
    key: 'account',
    scope: VOUCHER_CODE_SCOPE,
    ...rateLimits.voucherMissesPerAccount,
    countsOnly: 'error.voucher.code.invalid',
  },
  {
    name: 'per-address',
    key: 'ip',
    scope: VOUCHER_CODE_SCOPE,
    ...rateLimits.voucherMissesPerAddress,
    countsOnly: 'error.voucher.code.invalid',
  },
];
