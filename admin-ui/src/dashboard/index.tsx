import { type UserRole } from '@kupa/proto';
import { lazy, Suspense } from 'react';
import { Loading, Navigate, useBasename, usePermissions } from 'react-admin';
import { hasDashboard, homePathFor } from '../resources';

// Its own chunk: the charts and figures load only when an admin opens the dashboard, not with the console's first
// script (docs/adr/0027-dashboard.md).
const DashboardPage = lazy(() => import('./dashboard-page'));

/**
 * The console's root page: the dashboard for an admin; anyone else goes on to their own home (a manager to the
 * clients list, as before the dashboard existed), and never asks for the figures.
 */
export function Dashboard() {
  const { permissions, isPending } = usePermissions<UserRole | null>();
  const basename = useBasename();
  if (isPending) return null;
  const role = permissions ?? null;
  if (!hasDashboard(role)) {
    const home = homePathFor(role);
    // A role with no home of its own has nothing to be sent to (and the root is this very page).
    return home === '/' ? null : <Navigate to={`${basename}${home}`} replace />;
  }
  return (
    <Suspense fallback={<Loading />}>
      <DashboardPage />
    </Suspense>
  );
}
