import { type PipeTransform } from '@nestjs/common';
import { ApiError, CanonicalUuidPipe } from '../../../platform/http';

/**
 * Payment ids are positive integers written in decimal without a sign, a leading zero or spaces (so `0x10`, `1e1`,
 * `+1`, ` 1`, `1.0` and `01` are refused although `Number` reads them); the largest a JS number holds exactly has
 * 16 digits.
 */
const PAYMENT_ID_PATTERN = /^[1-9]\d{0,15}$/;

/** A path payment id; a malformed one names no payment, so it answers like a missing one (404), never a 500. */
export class PaymentIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const paymentId = Number(value);
    if (!PAYMENT_ID_PATTERN.test(value) || !Number.isSafeInteger(paymentId))
      throw new ApiError('error.payment.not.found');
    return paymentId;
  }
}

/** A path user uuid; a malformed one names no user, so it answers like another user's (404), never a 500. */
export const UserUuidPipe = CanonicalUuidPipe('error.user.not.found');

/** A path claim id; a malformed one names no claim (404). */
export const DepositClaimIdPipe = CanonicalUuidPipe('error.deposit.claim.not.found');
