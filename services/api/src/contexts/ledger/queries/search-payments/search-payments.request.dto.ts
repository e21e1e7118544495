import type { PaymentSearchRequest } from '@kupa/proto';
import { SearchRequestDto } from '../../../../platform/http';
import { WithPaymentFilters } from '../payment-rows/payment-filters.request.dto';

/** `POST /payments/search` and `/payments/search/{userUuid}`: paging and sorting plus the payments filters. */
export class SearchPaymentsRequestDto extends WithPaymentFilters(SearchRequestDto) implements PaymentSearchRequest {}
