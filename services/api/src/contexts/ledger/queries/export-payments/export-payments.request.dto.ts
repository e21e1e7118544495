import type { PaymentSearchRequest } from '@kupa/proto';
import { PaymentSortsDto, WithPaymentFilters } from '../payment-rows/payment-filters.request.dto';

/** `POST /payments/export`: the search's filters and sorts, without paging (the export holds every match). */
export class ExportPaymentsRequestDto
  extends WithPaymentFilters(PaymentSortsDto)
  implements Omit<PaymentSearchRequest, 'page' | 'size'> {}
