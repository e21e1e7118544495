import { SANDBOX_INVOICE_SIGNATURE_PARAM } from '@kupa/proto';
import { CashierSettings, SANDBOX_CASHIER_PATH } from '../platform/cashier';
import type { TestApp } from './test-app';

/** The sandbox invoice's id: the last segment of the path of a deposit's `invoiceUrl` (its query holds the key). */
export function sandboxInvoiceId(invoiceUrl: string): string {
  return new URL(invoiceUrl).pathname.split('/').pop() as string;
}

/** An invoice's page path with the key its link carries, as the invoice page's own forms and links have it. */
export function sandboxInvoicePath(testApp: TestApp, invoiceId: string, suffix = ''): string {
  const signature = testApp.app.get(CashierSettings).invoiceLinkSignature(invoiceId);
  return `${SANDBOX_CASHIER_PATH}/invoices/${invoiceId}${suffix}?${SANDBOX_INVOICE_SIGNATURE_PARAM}=${signature}`;
}

/** Presses a button of the sandbox invoice as a script holding its link does: `pay`, `partial`, `fail`, `expire`. */
export function sandboxAct(testApp: TestApp, invoiceId: string, action: string, body: object = {}) {
  return testApp.http.post(sandboxInvoicePath(testApp, invoiceId, `/${action}`)).send(body);
}
