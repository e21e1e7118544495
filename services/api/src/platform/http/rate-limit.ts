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
import { createHash } from 'node:crypto';
import {
  catchError,
  concat,
  concatMap,
  defer,
  from,
  ignoreElements,
  mergeMap,
  type Observable,
  throwError,
} from 'rxjs';
import { DataSource } from 'typeorm';
import { assert } from '../../kernel';
import { Clock } from '../clock';
import { APP_CONFIG, type AppConfig } from '../config';
import { ApiError } from './api-error';
import { type RateLimitCount, type RateLimitWindow, RateLimitWindows } from './rate-limit-windows';

/**
 * Fixed-window rate limits for the routes that invite guessing, mass sign-ups or mail bombing. Counters live in
 * PostgreSQL, shared by every API process, so each limit holds for the whole deployment
 * (docs/adr/0008-rate-limits.md, docs/adr/0015-session-versions-and-sign-in-limits.md,
 * docs/adr/0057-shared-rate-limits-and-no-sign-in-lock-out.md).
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
  /**
   * The name of another rule of the route: once this rule's window is full, it refuses only the requests whose
   * window under that rule already counts one (an address that failed for this account before), until that window
   * ends; every other request passes and is counted. Such a rule slows guessing down and locks nobody out.
   */
  refusesOnlyAfter?: string;
}

function endsAsCounted(rule: RateLimitRule, code: unknown): boolean {
  if (!rule.countsOnly) return true;
  const codes: readonly unknown[] = typeof rule.countsOnly === 'string' ? [rule.countsOnly] : rule.countsOnly;
  return codes.includes(code);
}

/** A route's rules, built from the configuration when a request arrives (limits are set by the environment). */
export type RateLimitRules = (config: AppConfig) => readonly RateLimitRule[];

const RATE_LIMIT = 'kupa:rateLimit';

/** Whether a rule's request holds a place from its start, rather than being counted once it ended. */
const holdsPlace = (rule: RateLimitRule): boolean => !(rule.countsOnly && rule.countedWhenEnded);

/**
 * The milliseconds until the request may try again, or 0 when every rule lets it in. `windows` holds each rule's
 * window as it stands with this request counted in the rules that hold a place.
 */
export function waitMs(
  rules: readonly RateLimitRule[],
  counts: readonly RateLimitCount[],
  windows: ReadonlyMap<string, RateLimitWindow>,
  nowMs: number,
): number {
  const before = (index: number) => {
    const window = windows.get(counts[index].key);
    return window ? window.count - (holdsPlace(rules[index]) ? 1 : 0) : 0;
  };
  const remainingMs = (index: number) => (windows.get(counts[index].key)?.expiresAtMs ?? nowMs) - nowMs;
  let longestMs = 0;
  rules.forEach((rule, index) => {
    if (before(index) < rule.limit) return;
    if (rule.refusesOnlyAfter === undefined) {
      longestMs = Math.max(longestMs, remainingMs(index));
      return;
    }
    const other = rules.findIndex((candidate) => candidate.name === rule.refusesOnlyAfter);
    assert(other >= 0, `Rate limit ${rule.name} names no rule of its route: ${rule.refusesOnlyAfter}`);
    if (before(other) >= 1) longestMs = Math.max(longestMs, remainingMs(other));
  });
  return longestMs;
}

/**
 * Counts the route's requests against its rules and answers 429 `error.rate.limited` with `Retry-After` once one of
 * them is full. An interceptor rather than a guard: it sees how the request ended, which "failures only" rules need.
 * A refused request is not counted: the places it took are given back.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  private readonly windows: RateLimitWindows;

  constructor(
    private readonly reflector: Reflector,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    dataSource: DataSource,
  ) {
    this.windows = new RateLimitWindows(dataSource);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rules = this.reflector.get<RateLimitRules | undefined>(RATE_LIMIT, context.getHandler())?.(this.config);
    if (!rules || rules.length === 0) return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const route = `${context.getClass().name}.${context.getHandler().name}`;
    const counts = rules.map((rule) => ({
      // The subject is hashed: a key of fixed length whatever the body sent (an index entry has a size limit), and
      // no e-mail or address in clear in the table.
      key: `${rule.scope ?? route}|${rule.name}|${sha256(subject(rule, request))}`,
      limit: rule.limit,
      windowMs: rule.windowMs,
    }));
    const response = context.switchToHttp().getResponse<Response>();
    return from(this.admit(rules, counts, response)).pipe(
      mergeMap((places) => {
        if (!rules.some((rule) => rule.countsOnly)) return next.handle();
        let settled = false;
        // Awaited before the answer leaves, so the next request, in this process or another, sees this one counted.
        const settle = async (error: unknown) => {
          if (settled) return;
          settled = true;
          await this.settle(rules, counts, places, error);
        };
        return concat(
          next.handle().pipe(
            concatMap(async (value: unknown) => {
              await settle(null);
              return value;
            }),
            catchError((error: unknown) => from(settle(error)).pipe(mergeMap(() => throwError(() => error)))),
          ),
          defer(() => from(settle(null))).pipe(ignoreElements()),
        );
      }),
    );
  }

  /**
   * Counts the request where its rules hold places and reads the others' windows, in one statement; refuses it (and
   * gives its places back) when a rule is full. Answers the places it holds, null for rules counted once it ended.
   */
  private async admit(
    rules: readonly RateLimitRule[],
    counts: readonly RateLimitCount[],
    response: Response,
  ): Promise<(RateLimitWindow | null)[]> {
    const nowMs = this.clock.now().getTime();
    const held = counts.filter((_count, index) => holdsPlace(rules[index]));
    const readKeys = counts.filter((_count, index) => !holdsPlace(rules[index])).map((count) => count.key);
    const windows = await this.windows.countAndRead(held, readKeys, nowMs);
    const places = counts.map((count, index) => (holdsPlace(rules[index]) ? (windows.get(count.key) ?? null) : null));
    const retryAfterMs = waitMs(rules, counts, windows, nowMs);
    if (retryAfterMs > 0) {
      await this.windows.giveBack(places.filter((place) => place !== null));
      response.setHeader('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
      throw new ApiError('error.rate.limited');
    }
    return places;
  }

  /** Gives back the places of rules the request's ending does not count, and counts the rules counted once it ended. */
  private async settle(
    rules: readonly RateLimitRule[],
    counts: readonly RateLimitCount[],
    places: readonly (RateLimitWindow | null)[],
    error: unknown,
  ): Promise<void> {
    const code = (error as { code?: unknown } | null)?.code;
    const givenBack: RateLimitWindow[] = [];
    const countedNow: RateLimitCount[] = [];
    rules.forEach((rule, index) => {
      const counted = endsAsCounted(rule, code);
      const place = places[index];
      if (place === null) {
        if (counted && !holdsPlace(rule)) countedNow.push(counts[index]);
      } else if (!counted) givenBack.push(place);
    });
    await this.windows.giveBack(givenBack);
    await this.windows.countAndRead(countedNow, [], this.clock.now().getTime());
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('base64url');

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
