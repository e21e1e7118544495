/**
 * Startup options of every connection the application's pools open (primary and replica), as PostgreSQL's
 * `options` startup parameter (docs/adr/0132-no-jit-for-our-statements.md).
 *
 * `jit=off`: PostgreSQL compiles a statement to machine code when the planner's cost estimate passes
 * `jit_above_cost` (100,000 by default), and optimises and inlines it past 500,000. The commit-window reads of the
 * rebuilds (1,000 events) and of `kupa events republish` (2,000) are estimated above that (the planner cannot estimate
 * a range between two columns of the other side of a lateral join), while they run in milliseconds: each batch paid
 * 20 to 480 ms of compilation. None of our statements is a long analytic query that compilation would pay back.
 */
export const DATABASE_SESSION_OPTIONS = '-c jit=off';
