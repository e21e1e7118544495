import { canonicalJson } from '@kupa/proto';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The NOWPayments API as we speak it (docs/adr/0028-crypto-cashier.md): the wire shapes of the two calls we make and
 * of the IPN, and the IPN signature. The sandbox serves the same shapes, so one adapter talks to both.
 */

/** The header carrying an IPN's signature. */
export const IPN_SIGNATURE_HEADER = 'x-nowpayments-sig';
/** The OpenAPI security scheme of the IPN route: the signature header is its credential. */
export const IPN_SECURITY_SCHEME = 'ipn-signature';

/** The header carrying our API key on every call to the provider. */
export const API_KEY_HEADER = 'x-api-key';

/** `POST /v1/invoice`. */
export interface NowPaymentsInvoiceRequest {
  price_amount: number;
  price_currency: 'usd';
  pay_currency: string;
  order_id: string;
  order_description: string;
  ipn_callback_url: string;
  success_url: string;
  cancel_url: string;
}

export interface NowPaymentsInvoice {
  id: string;
  order_id: string;
  order_description: string;
  price_amount: string;
  price_currency: string;
  pay_currency: string;
  ipn_callback_url: string;
  invoice_url: string;
  success_url: string;
  cancel_url: string;
  created_at: string;
  updated_at: string;
}

/** `GET /v1/payment/{id}`, and the body of an IPN. Amounts are JSON numbers of the coin (or of dollars for `price_amount`). */
export interface NowPaymentsPayment {
  payment_id: number;
  invoice_id: number | null;
  payment_status: string;
  pay_address: string;
  price_amount: number;
  price_currency: string;
  pay_amount: number;
  actually_paid: number;
  pay_currency: string;
  order_id: string;
  order_description: string;
  outcome_amount: number;
  outcome_currency: string;
  created_at: string;
  updated_at: string;
}

/**
 * The signature of an IPN body: hex HMAC-SHA512 under the IPN secret over the body's JSON with object keys sorted at
 * every depth. NOWPayments' own example sorts only the top-level keys through `JSON.stringify`'s replacer array,
 * which silently drops the members of nested objects (the `fee` object); the recursive form signs everything, and is
 * what the provider's signatures match. `canonicalJson` sorts by UTF-16 code units at every depth and writes
 * numbers and strings as `JSON.stringify` does, which is exactly `JSON.stringify` of a recursively sorted copy.
 */
export function ipnSignature(body: unknown, secret: string): string {
  return createHmac('sha512', secret).update(canonicalJson(body)).digest('hex');
}

/** Whether `signature` signs `body` under `secret`; constant-time, and false for anything malformed. */
export function isValidIpnSignature(body: unknown, signature: unknown, secret: string): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  let expected: string;
  try {
    expected = ipnSignature(body, secret);
  } catch {
    // A body JSON cannot represent faithfully (an unpaired surrogate) was not signed by anyone.
    return false;
  }
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(signature.toLowerCase(), 'hex'));
}
