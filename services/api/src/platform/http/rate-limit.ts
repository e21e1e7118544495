import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ErrorCode } from '@kupa/proto';
import type { Request, Response } from 'express';
import { type Observable, tap } from 'rxjs';
import { Clock } from '../clock';
import { APP_CONFIG, type AppConfig } from '../config';
import { ApiError } from './api-error';

/**
 * Fixed-window rate limits for the routes that invite guessing, mass sign-ups or mail bombing. Counters live in this
 * process's memory: one API process per deployment today; several replicas would each allow the limit, which still
 * bounds guessing (docs/adr/0008-rate-limits.md, docs/adr/0015-session-versions-and-sign-in-limits.md).
 */
export interface RateLimitRule {
  /** Tells the route's counters apart when it has several rules. */
  name: string;
  /**
   * Counted per client address, per e-mail in the body (across addresses), per both together, or per signed-in
   * account (the actor the auth guard resolved; only on routes that require one).
   */
  key: 'ip' | 'email' | 'ip-and-email' | 'account';
  /**
   * Routes that guard the same thing share counters when they name the same scope (a recipient look-up and a
   * transfer both tell whether an address has an account); without one, each route counts on its own.
   */
  scope?: string;
  limit: number;
  windowMs: number;
  /**
   * When set, only requests that end with this catalogue error (or one of these) count (a failed sign-in); every other request gives
   * its place back when it ends. Its place is taken when it starts, so parallel attempts cannot slip past the limit.
   */
  countsOnly?: ErrorCode | readonly ErrorCode[];
  /**
   * With `countsOnly`: the request holds no place while it runs and is counted once it ended with a counted code.
   * Parallel requests may then pass the limit by their number, but a burst of legitimate requests never fills it (a
   * transfer, whose misses alone count, must not wait behind other transfers still running).
   */
  countedWhenEnded?: boolean;
}

function endsAsCounted(rule: RateLimitRule, code: unknown): boolean {
  if (!rule.countsOnly) return true;
  const codes: readonly unknown[] = typeof rule.countsOnly === 'string' ? [rule.countsOnly] : rule.countsOnly;
  return codes.includes(code);
}

/** A route's rules, built from the configuration when a request arrives (limits are set by the environment). */
export type RateLimitRules = (config: AppConfig) => readonly RateLimitRule[];

const RATE_LIMIT = 'kupa:rateLimit';
/** Above this many tracked keys, expired windows are swept before counting. */
const SWEEP_THRESHOLD_KEYS = 10_000;

/** One key's fixed window: it ends at its own instant, whatever rule another key follows. */
export interface RateLimitWindow {
  expiresAtMs: number;
  count: number;
}

export interface RateLimitCount {
  key: string;
  limit: number;
  windowMs: number;
}

export type RateLimitOutcome =
  { allowed: true; windows: RateLimitWindow[] } | { allowed: false; retryAfterSeconds: number };

/**
 * The counters. Each window keeps its own expiry, so sweeping for one short rule never drops another rule's long
 * window early.
 */
export class RateLimitWindows {
  private readonly windows = new Map<string, RateLimitWindow>();

  constructor(private readonly sweepThresholdKeys: number = SWEEP_THRESHOLD_KEYS) {}

  get trackedKeys(): number {
    return this.windows.size;
  }

  /**
   * Counts one request against every key, unless one of them is already full: then nothing is counted and the answer
   * carries the seconds until the last of the full windows ends.
   */
  take(counts: readonly RateLimitCount[], nowMs: number): RateLimitOutcome {
    const retryAfterSeconds = this.waitSeconds(counts, nowMs);
    if (retryAfterSeconds > 0) return { allowed: false, retryAfterSeconds };
    return { allowed: true, windows: counts.map((count) => this.count(count, nowMs)) };
  }

  /** The seconds until the last of the full windows among these keys ends; 0 when none is full. Counts nothing. */
  waitSeconds(counts: readonly RateLimitCount[], nowMs: number): number {
    if (this.windows.size > this.sweepThresholdKeys) this.sweep(nowMs);
    let retryAfterMs = 0;
    for (const { key, limit } of counts) {
      const window = this.live(key, nowMs);
      if (window && window.count >= limit) retryAfterMs = Math.max(retryAfterMs, window.expiresAtMs - nowMs);
    }
    return retryAfterMs > 0 ? Math.ceil(retryAfterMs / 1000) : 0;
  }

  /** Counts one request against one key, full or not: for a request counted once it ended. */
  count({ key, windowMs }: RateLimitCount, nowMs: number): RateLimitWindow {
    let window = this.live(key, nowMs);
    if (!window) {
      window = { expiresAtMs: nowMs + windowMs, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  /** Gives back a place `take` counted, unless its window has ended meanwhile. */
  giveBack(key: string, window: RateLimitWindow): void {
    if (this.windows.get(key) === window && window.count > 0) window.count -= 1;
  }

  private live(key: string, nowMs: number): RateLimitWindow | null {
    const window = this.windows.get(key);
    return window && window.expiresAtMs > nowMs ? window : null;
  }

  private sweep(nowMs: number): void {
    for (const [key, window] of this.windows) {
      if (window.expiresAtMs <= nowMs) this.windows.delete(key);
    }
  }
}

/**
 * Counts the route's requests against its rules and answers 429 `error.rate.limited` with `Retry-After` once one of
 * them is full. An interceptor rather than a guard: it sees how the request ended, which "failures only" rules need.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  private readonly windows = new RateLimitWindows();

  constructor(
    private readonly reflector: Reflector,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rules = this.reflector.get<RateLimitRules | undefined>(RATE_LIMIT, context.getHandler())?.(this.config);
    if (!rules || rules.length === 0) return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const route = `${context.getClass().name}.${context.getHandler().name}`;
    const counts = rules.map((rule) => ({
      key: `${rule.scope ?? route}|${rule.name}|${subject(rule, request)}`,
      limit: rule.limit,
      windowMs: rule.windowMs,
    }));
    const nowMs = this.clock.now().getTime();
    const retryAfterSeconds = this.windows.waitSeconds(counts, nowMs);
    if (retryAfterSeconds > 0) {
      context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retryAfterSeconds));
      throw new ApiError('error.rate.limited');
    }
    // The check above and these counts run without a pause between them, so parallel requests cannot slip through.
    // A rule counted once the request ended holds no place (null) meanwhile.
    const places = rules.map((rule, index) =>
      rule.countsOnly && rule.countedWhenEnded ? null : this.windows.count(counts[index], nowMs),
    );
    if (!rules.some((rule) => rule.countsOnly)) return next.handle();
    let settled = false;
    const settle = (error: unknown) => {
      if (settled) return;
      settled = true;
      const code = (error as { code?: unknown } | null)?.code;
      rules.forEach((rule, index) => {
        const counted = endsAsCounted(rule, code);
        const place = places[index];
        if (place === null) {
          if (counted) this.windows.count(counts[index], this.clock.now().getTime());
        } else if (!counted) this.windows.giveBack(counts[index].key, place);
      });
    };
    return next
      .handle()
      .pipe(tap({ next: () => settle(null), error: (error: unknown) => settle(error), complete: () => settle(null) }));
  }
}

function subject(rule: RateLimitRule, request: Request): string {
  const ip = request.ip ?? 'unknown';
  if (rule.key === 'ip') return ip;
  if (rule.key === 'account') {
    const account = (request as Request & { user?: { userUuid?: unknown } }).user?.userUuid;
    // The route's guard let the request in, so an actor is known; a route without one must not name this key.
    if (typeof account !== 'string') throw new Error(`Rate limit ${rule.name} counts per account on a public route`);
    return account;
  }
  const body = request.body as { email?: unknown } | undefined;
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
  return rule.key === 'email' ? email : `${ip}|${email}`;
}

/** Rate limits a route: `@RateLimit(SIGN_IN_LIMITS)`. */
export const RateLimit = (rules: RateLimitRules): MethodDecorator =>
  applyDecorators(SetMetadata(RATE_LIMIT, rules), UseInterceptors(RateLimitInterceptor));
