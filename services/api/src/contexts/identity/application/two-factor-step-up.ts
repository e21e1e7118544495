import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { ApiError, RateLimitWindows } from '../../../platform/http';
import { type StepUpCheck, stepUpRefusal } from '../domain/step-up.rules';
import { TwoFactorStore } from '../infrastructure/two-factor/two-factor-store';

/**
 * Step-up (docs/adr/0098-client-two-factor-and-step-up.md): the gate a call passes before it moves the balance or
 * changes how an account signs in. With two-factor sign-in on, the request must carry a fresh authenticator code or
 * an unused recovery code, which this spends; without it, nothing is asked. Other contexts (the ledger's transfer)
 * reach it through identity's index.
 *
 * Wrong and reused codes are limited per account in the rate limiter's PostgreSQL windows, which every API process
 * shares (ADR 0057), one window for all step-up calls. The gate counts them itself rather than through `@RateLimit`
 * on the routes: only a code checked for an account with two-factor sign-in takes a place, and it takes it before the
 * check, so parallel guesses cannot slip past the limit, while parallel transfers of accounts without two-factor
 * sign-in never wait on each other.
 */
@Injectable()
export class TwoFactorStepUp {
  private readonly windows: RateLimitWindows;

  constructor(
    private readonly store: TwoFactorStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    dataSource: DataSource,
  ) {
    this.windows = new RateLimitWindows(dataSource);
  }

  /**
   * Refuses with `error.otp.step.up.required`, `error.otp.invalid`, `error.otp.reused` or, once the account's window
   * holds too many failures, `error.rate.limited` (a right code included, until the window ends); or lets the call on.
   * `known` is whether the account's step-up is on, when the caller read it with the account.
   */
  async confirm(userUuid: string, code: string | undefined, at: Date, known?: { stepUpOn: boolean }): Promise<void> {
    const enabled = known?.stepUpOn ?? (await this.store.find(userUuid))?.status === 'ACTIVE';
    if (!enabled) return;
    if (code === undefined || code.trim() === '') {
      const refusal = stepUpRefusal(enabled, 'NONE');
      if (refusal !== null) throw new ApiError(refusal);
      return;
    }
    const { limit, windowMs } = this.config.rateLimits.stepUpFailuresPerAccount;
    const key = `two-factor-step-up|failures-per-account|${createHash('sha256').update(userUuid).digest('base64url')}`;
    const nowMs = at.getTime();
    const window = (await this.windows.countAndRead([{ key, limit, windowMs }], [], nowMs)).get(key);
    if (window && window.count > limit) {
      await this.windows.giveBack([window]);
      throw new ApiError('error.rate.limited', { retryAfterSeconds: Math.ceil((window.expiresAtMs - nowMs) / 1000) });
    }
    let check: StepUpCheck;
    try {
      check = await this.store.checkStepUpCode(userUuid, code, at);
    } catch (error) {
      if (window) await this.windows.giveBack([window]);
      throw error;
    }
    // Only failures stay counted: a right code gives its place back.
    if (check === 'FRESH' && window) await this.windows.giveBack([window]);
    const refusal = stepUpRefusal(enabled, check);
    if (refusal !== null) throw new ApiError(refusal);
  }
}
