import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';

/**
 * Sign-in attempts per client address and e-mail: enough for typos, far too few to guess a password that passes
 * the spec's rules. Counted per address and e-mail so one office behind a NAT does not lock everyone out.
 */
export const SIGN_IN_LIMIT = { limit: 10, ttl: 60_000 };

/** Calls that send mail (forgot password, resend confirmation) per client address: stops mail bombing. */
export const MAIL_REQUEST_LIMIT = { limit: 10, ttl: 15 * 60_000 };

/** The module-wide default, which only applies where one of the guards below is attached. */
export const DEFAULT_RATE_LIMIT = { limit: 100, ttl: 60_000 };

@Injectable()
export class PerIpThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(String(request.ip ?? 'unknown'));
  }
}

@Injectable()
export class PerIpAndEmailThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const body = request.body as { email?: unknown } | undefined;
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    return Promise.resolve(`${String(request.ip ?? 'unknown')}|${email}`);
  }
}
