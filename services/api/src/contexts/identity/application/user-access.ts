import { isStaffRole } from '@kupa/proto';
import type { Actor } from '../../../platform/auth';
import { ApiError } from '../../../platform/http';

/** Staff see every user; anyone else only themself, and another user's record answers as missing (docs/product.md). */
export function assertMaySee(actor: Actor, userUuid: string): void {
  if (!isStaffRole(actor.role) && actor.userUuid !== userUuid) throw new ApiError('error.user.not.found');
}
