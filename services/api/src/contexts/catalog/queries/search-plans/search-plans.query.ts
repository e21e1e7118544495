import { Query } from '@nestjs/cqrs';
import type { Page, Plan } from '@kupa/proto';
import type { Actor } from '../../../../platform/auth';
import type { SearchPlansRequestDto } from './search-plans.request.dto';

/** A packages search as `actor`: customers find only ACTIVE packages, whatever statuses they ask for. */
export class SearchPlansQuery extends Query<Page<Plan>> {
  constructor(
    readonly actor: Actor,
    readonly request: SearchPlansRequestDto,
  ) {
    super();
  }
}
