import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from './api-error';

/**
 * Fixed-window rate limits for the routes that invite guessing or mail bombing (sign-in, forgot password, resend
 * confirmation). Counters live in this process's memory: one API process per deployment today; several replicas
 * would each allow the limit, which still bounds guessing (ADR 0008).
 */
export interface RateLimitRule {
  /** Counted per client address, or per client address and the e-mail in the body. */
  key: 'ip' | 'ip-and-email';
  limit: number;
  windowMs: number;
}

const RATE_LIMIT = 'kupa:rateLimit';
/** Above this many tracked keys, expired windows are swept before counting. */
const SWEEP_THRESHOLD_KEYS = 10_000;

export const RateLimit = (rule: RateLimitRule): MethodDecorator => SetMetadata(RATE_LIMIT, rule);

interface Window {
  startedAtMs: number;
  count: number;
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.get<RateLimitRule | undefined>(RATE_LIMIT, context.getHandler());
    if (!rule) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const nowMs = Date.now();
    const key = `${context.getClass().name}.${context.getHandler().name}|${this.subject(rule, request)}`;
    if (this.windows.size > SWEEP_THRESHOLD_KEYS) this.sweep(nowMs, rule.windowMs);
    const window = this.windows.get(key);
    if (!window || nowMs - window.startedAtMs >= rule.windowMs) {
      this.windows.set(key, { startedAtMs: nowMs, count: 1 });
      return true;
    }
    window.count += 1;
    if (window.count > rule.limit) {
      const retryAfterSeconds = Math.ceil((window.startedAtMs + rule.windowMs - nowMs) / 1000);
      context.switchToHttp().getResponse().setHeader('Retry-After', String(retryAfterSeconds));
      throw new ApiError('error.rate.limited');
    }
    return true;
  }

  private subject(rule: RateLimitRule, request: Request): string {
    const ip = request.ip ?? 'unknown';
    if (rule.key === 'ip') return ip;
    const body = request.body as { email?: unknown } | undefined;
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
    return `${ip}|${email}`;
  }

  private sweep(nowMs: number, windowMs: number): void {
    for (const [key, window] of this.windows) {
      if (nowMs - window.startedAtMs >= windowMs) this.windows.delete(key);
    }
  }
}
