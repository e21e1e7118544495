import { Query } from '@nestjs/cqrs';
import type { DashboardSummary } from '@kupa/proto';

/** The admin's dashboard figures, as of the injected clock's now. */
export class GetDashboardQuery extends Query<DashboardSummary> {}
