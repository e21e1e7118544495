export { CashierClient, CASHIER_CALL_TIMEOUT_MS } from './cashier-client';
export { CashierModule } from './cashier.module';
export { CashierSettings, SANDBOX_CASHIER_PATH } from './cashier-settings';
export {
  API_KEY_HEADER,
  IPN_SECURITY_SCHEME,
  IPN_SIGNATURE_HEADER,
  ipnSignature,
  isValidIpnSignature,
  type NowPaymentsInvoice,
  type NowPaymentsInvoiceRequest,
  type NowPaymentsPayment,
} from './nowpayments';
export { SANDBOX_INVOICE_PAGE_PATH, SANDBOX_RATES_USD } from './sandbox/sandbox-cashier.service';
export { SandboxInvoiceOwners } from './sandbox/sandbox-invoice-owners';
