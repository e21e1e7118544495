import type { Actor } from '../../../../platform/auth';
import type { SearchPaymentsRequestDto } from './search-payments.request.dto';

/**
 * A payments search as `actor`. `userUuid` is the user named in the path (`/payments/search/{userUuid}`), or null
 * for the plain search, where customers still only see their own rows.
 */
export class SearchPaymentsQuery {
  constructor(
    readonly actor: Actor,
    readonly request: SearchPaymentsRequestDto,
    readonly userUuid: string | null,
  ) {}
}
