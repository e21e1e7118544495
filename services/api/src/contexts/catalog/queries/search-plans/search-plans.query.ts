import type { Actor } from '../../../../platform/auth';
import type { SearchPlansRequestDto } from './search-plans.request.dto';

/** A packages search as `actor`: customers find only ACTIVE packages, whatever statuses they ask for. */
export class SearchPlansQuery {
  constructor(
    readonly actor: Actor,
    readonly request: SearchPlansRequestDto,
  ) {}
}
