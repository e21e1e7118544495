import type { EventMetadata, UserRole, UserStatus } from '@kupa/proto';
import { SYSTEM_ACTOR_ID, SYSTEM_ACTOR_NAME } from '@kupa/proto';
import { randomUUID } from 'node:crypto';

/** The signed-in person a request acts for, as the JWT guard resolved it from the current read model. */
export interface Actor {
  userUuid: string;
  email: string;
  role: UserRole;
  name: string;
  /**
   * The refresh-token family the access token was signed for; absent for tokens that name none and for actors not
   * made from a token.
   */
  sessionId?: string;
  /**
   * Present when the token is a staff member's read-only view of this client's portal (ADR 0092): the actor above is
   * the client, `viewAs.staff` is who is looking. Such a request may not change anything (`ViewAsReadOnlyGuard`).
   */
  viewAs?: { viewId: string; staff: { userUuid: string; email: string; role: UserRole; name: string } };
}

/** What the guard needs to know about a token's subject right now (status and role may have changed). */
export interface ActorRecord {
  userUuid: string;
  email: string;
  role: UserRole;
  status: UserStatus;
  fullName: string;
  /** Moves on with every password change, reset or staff-set password; older access tokens are refused. */
  sessionVersion: number;
  /**
   * The user's sessions (refresh families) ended within an access token's lifetime, by logout or by the detection
   * of a stolen refresh token: their access tokens are refused at once rather than when they expire.
   */
  endedSessionIds: readonly string[];
  /**
   * Of those, the ones staff ended, with the catalogue code that tells the owner why (ADR 0099); absent when none.
   */
  sessionEndCodes?: Readonly<Record<string, string>>;
}

/**
 * The identity context implements this port; the platform guard uses it so that a blocked user's still-valid
 * access token stops working at once, a role change takes effect on the next request, and a password change ends
 * the access tokens signed before it.
 */
export abstract class ActorLookup {
  abstract findByUuid(userUuid: string): Promise<ActorRecord | null>;
}

/**
 * Records each request made with a view-as token in the activity log under the client (the identity context
 * implements it), with the staff member as the actor.
 */
export abstract class ViewAsRecorder {
  abstract recordRequest(actor: Actor, page: string, ip: string | null, correlationId: string): Promise<void>;
}

export interface RequestContext {
  actor: Actor | null;
  ip: string | null;
  correlationId: string;
}

export function eventMetadata(
  context: RequestContext,
  occurredAt: Date,
  causationId: string | null = null,
): EventMetadata {
  const actor = context.actor;
  return {
    actor: actor
      ? { id: actor.userUuid, email: actor.email, role: actor.role, name: actor.name }
      : { id: SYSTEM_ACTOR_ID, email: null, role: null, name: SYSTEM_ACTOR_NAME },
    correlationId: context.correlationId,
    causationId,
    occurredAt: occurredAt.toISOString(),
    ip: context.ip,
  };
}

export function systemContext(correlationId: string = randomUUID()): RequestContext {
  return { actor: null, ip: null, correlationId };
}
