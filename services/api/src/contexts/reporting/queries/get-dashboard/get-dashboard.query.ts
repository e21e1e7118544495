/** The admin's dashboard figures, as of the injected clock's now. */
export class GetDashboardQuery {}
