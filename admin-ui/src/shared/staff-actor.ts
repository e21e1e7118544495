import { type AccountRef } from '@kupa/proto';
import { session } from '../providers/session';

/**
 * The signed-in staff member as proto's guard rails see them (uuid and role), read from the session the sign-in
 * stored. Screens use it to offer only what the server will accept; the server keeps the rule either way.
 */
export function useStaffActor(): AccountRef | null {
  const current = session.get();
  return current ? { userUuid: current.userUuid, role: current.userRole } : null;
}
