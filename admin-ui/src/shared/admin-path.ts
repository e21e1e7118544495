import { useCallback } from 'react';
import { useBasename } from 'react-admin';

/**
 * Turns a console path (`/ledger/history?…`) into the address the router needs. The browser router has no basename
 * of its own (react-admin holds it), so links to custom routes must add `/admin` themselves, as react-admin's
 * `useCreatePath` does for resources.
 */
export function useAdminPath() {
  const basename = useBasename();
  return useCallback((path: string) => `${basename}${path.startsWith('/') ? '' : '/'}${path}`, [basename]);
}
