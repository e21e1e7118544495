import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../../../../platform/http';

/** How the built-in simulator is set up in this process. */
export class SandboxStreamingSettings {
  constructor(
    /** Serving at all: only where the sandboxes may run (`KUPA_SANDBOX`) and no `PROVISIONING_URL` is set. */
    readonly active: boolean,
    /** `PROVISIONING_SIMULATOR_FAULTS=1`. */
    readonly faultsEnabled: boolean,
    /** The bearer token callers must present (`PROVISIONING_TOKEN`, or the one kept in the data directory). */
    readonly token: string,
    /** How long a `timeout` fault holds its answer: longer than the adapter waits. */
    readonly timeoutHoldMs: number,
  ) {}
}

/**
 * The simulator's own door, in place of the app's sign-in (its routes are `@Public()`): a route of an inactive
 * simulator, or a fault route without the flag, does not exist (404); otherwise the provisioning token is required
 * (401), as the real service requires it. Handlers call it after their body is validated, so a malformed request is
 * refused field by field like on every other route; the comparison takes the same time whatever the token sent.
 */
export function admitSandboxCaller(
  settings: SandboxStreamingSettings,
  request: Request,
  route: 'account' | 'fault' = 'account',
): void {
  if (!settings.active || (route === 'fault' && !settings.faultsEnabled)) throw new ApiError('error.entity.not.found');
  const presented = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  if (!sameSecret(presented, settings.token)) throw new ApiError('error.token.invalid');
}

function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
