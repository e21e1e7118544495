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
  /** Counted per client address, per e-mail in the body (across addresses), or per both together. */
  key: 'ip' | 'email' | 'ip-and-email';
  limit: number;
  windowMs: number;
  /**
   * When set, only requests that end with this catalogue error (or one of these) count (a failed sign-in); every other request gives
   * its place back when it ends. Its place is taken when it starts, so parallel attempts cannot slip past the limit.
   */
  countsOnly?: ErrorCode | readonly ErrorCode[];
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
    if (this.windows.size > this.sweepThresholdKeys) this.sweep(nowMs);
    let retryAfterMs = 0;
    for (const { key, limit } of counts) {
      const window = this.live(key, nowMs);
      if (window && window.count >= limit) retryAfterMs = Math.max(retryAfterMs, window.expiresAtMs - nowMs);
    }
    if (retryAfterMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    const windows = counts.map(({ key, windowMs }) => {
      let window = this.live(key, nowMs);
      if (!window) {
        window = { expiresAtMs: nowMs + windowMs, count: 0 };
        this.windows.set(key, window);
      }
      window.count += 1;
      return window;
    });
    return { allowed: true, windows };
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
      key: `${route}|${rule.name}|${subject(rule, request)}`,
      limit: rule.limit,
      windowMs: rule.windowMs,
    }));
    const outcome = this.windows.take(counts, this.clock.now().getTime());
    if (!outcome.allowed) {
      context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(outcome.retryAfterSeconds));
      throw new ApiError('error.rate.limited');
    }
    if (!rules.some((rule) => rule.countsOnly)) return next.handle();
    let settled = false;
    const settle = (error: unknown) => {
      if (settled) return;
      settled = true;
      const code = (error as { code?: unknown } | null)?.code;
      rules.forEach((rule, index) => {
        if (!endsAsCounted(rule, code)) this.windows.giveBack(counts[index].key, outcome.windows[index]);
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
  const body = request.body as { email?: unknown } | undefined;
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
  return rule.key === 'email' ? email : `${ip}|${email}`;
}

/** Rate limits a route: `@RateLimit(SIGN_IN_LIMITS)`. */
export const RateLimit = (rules: RateLimitRules): MethodDecorator =>
  applyDecorators(SetMetadata(RATE_LIMIT, rules), UseInterceptors(RateLimitInterceptor));
