import { useEffect, useState } from 'react';
import { useViewAsStore, type ViewAsSession } from '../../lib/view-as/view-as-store';

export type ViewAsState = { status: 'none' } | { status: 'active' | 'ended'; session: ViewAsSession };

/** The open view and whether it has ended, by its clock or by the API's refusal; re-renders when the time comes. */
export function useViewAs(now: () => number = Date.now): ViewAsState {
  const session = useViewAsStore((state) => state.session);
  const refused = useViewAsStore((state) => state.refused);
  const endsAt = session ? new Date(session.expiresAt).getTime() : null;
  const [, setTick] = useState(0);
  useEffect(() => {
    if (endsAt === null) return undefined;
    const left = endsAt - now();
    if (left <= 0) return undefined;
    // Browsers cap a timer at about 24.8 days; a view lasts 15 minutes.
    const timer = setTimeout(() => setTick((tick) => tick + 1), left);
    return () => clearTimeout(timer);
  }, [endsAt, now]);
  if (!session || endsAt === null) return { status: 'none' };
  return { status: refused || now() >= endsAt ? 'ended' : 'active', session };
}
