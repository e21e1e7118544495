import { Injectable, Logger } from '@nestjs/common';
import type { ErrorCode } from '@kupa/proto';
import { ApiError } from '../http';
import { CashierSettings } from './cashier-settings';
import {
  API_KEY_HEADER,
  type NowPaymentsInvoice,
  type NowPaymentsInvoiceRequest,
  type NowPaymentsPayment,
} from './nowpayments';

/** A provider that does not answer within this long is treated as unavailable. */
export const CASHIER_CALL_TIMEOUT_MS = 15_000;

/**
 * The HTTP side of the cashier adapter: the two NOWPayments calls we make, with our API key, against the provider
 * or the sandbox alike. Anything but a good answer is `error.cashier.unavailable` (503), except a payment the
 * provider does not know (`getPayment`); the answer's shape is checked by the caller, which decides what it means
 * for money.
 */
@Injectable()
export class CashierClient {
  private readonly logger = new Logger('CashierClient');

  constructor(private readonly settings: CashierSettings) {}

  createInvoice(request: NowPaymentsInvoiceRequest): Promise<NowPaymentsInvoice> {
    return this.call<NowPaymentsInvoice>('POST', '/v1/invoice', request);
  }

  /**
   * The payment as the provider knows it now: what we credit from, never the IPN's body. A payment the provider does
   * not know is `error.cashier.payment.not.found` (404), not an outage: our request is well formed (the id is checked
   * and the key is ours), so a 404 or 400 names a payment that does not exist there, and answering 503 would have
   * the provider retry its notification forever (docs/adr/0059-edges-refuse-what-they-cannot-read.md).
   */
  getPayment(providerPaymentId: string): Promise<NowPaymentsPayment> {
    return this.call<NowPaymentsPayment>('GET', `/v1/payment/${encodeURIComponent(providerPaymentId)}`, undefined, {
      unknownStatuses: [400, 404],
      unknown: 'error.cashier.payment.not.found',
    });
  }

  private async call<Answer>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    refusal?: { unknownStatuses: readonly number[]; unknown: ErrorCode },
  ): Promise<Answer> {
    // No cashier configured and no sandbox allowed: nothing to call, and crypto deposits are simply unavailable.
    if (!this.settings.available) throw new ApiError('error.cashier.unavailable');
    const url = `${this.settings.apiBase()}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          [API_KEY_HEADER]: this.settings.apiKey,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(CASHIER_CALL_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      this.logger.warn(`${method} ${path} failed: ${String(error)}`);
      throw new ApiError('error.cashier.unavailable');
    }
    const text = await response.text();
    if (!response.ok) {
      this.logger.warn(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
      if (refusal?.unknownStatuses.includes(response.status)) throw new ApiError(refusal.unknown);
      throw new ApiError('error.cashier.unavailable');
    }
    try {
      return JSON.parse(text) as Answer;
    } catch {
      this.logger.warn(`${method} ${path} answered with something other than JSON`);
      throw new ApiError('error.cashier.unavailable');
    }
  }
}
