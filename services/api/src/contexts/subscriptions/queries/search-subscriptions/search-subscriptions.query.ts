import type { Actor } from '../../../../platform/auth';
import type { SearchSubscriptionsRequestDto } from './search-subscriptions.request.dto';

/** A subscriptions search as `actor`: clients and ambassadors find only their own, whatever they ask for. */
export class SearchSubscriptionsQuery {
  constructor(
    readonly actor: Actor,
    readonly request: SearchSubscriptionsRequestDto,
  ) {}
}
