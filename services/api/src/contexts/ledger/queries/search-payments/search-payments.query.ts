import { Query } from '@nestjs/cqrs';
import type { Page, Payment } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';
import type { SearchPaymentsRequestDto } from './search-payments.request.dto';

/**
 * A payments search as `actor`. `userUuid` is the user named in the path (`/payments/search/{userUuid}`), or null
 * for the plain search, where customers still only see their own rows.
 */
export class SearchPaymentsQuery extends Query<Page<Payment>> {
  constructor(
    readonly actor: Actor,
    readonly request: SearchPaymentsRequestDto,
    readonly userUuid: string | null,
  ) {
    super();
  }
}
