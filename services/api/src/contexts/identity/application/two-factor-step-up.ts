import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../platform/http';
import { type StepUpCheck, stepUpRefusal } from '../domain/step-up.rules';
import { TwoFactorStore } from '../infrastructure/two-factor/two-factor-store';

/**
 * Step-up (docs/adr/0098-client-two-factor-and-step-up.md): the gate a call passes before it moves the balance or
 * changes how an account signs in. With two-factor sign-in on, the request must carry a fresh authenticator code or
 * an unused recovery code, which this spends; without it, nothing is asked. Wrong and reused codes are counted by
 * `STEP_UP_LIMITS` on the calling route, in counters every API process shares. Other contexts (the ledger's transfer)
 * reach it through identity's index.
 */
@Injectable()
export class TwoFactorStepUp {
  constructor(private readonly store: TwoFactorStore) {}

  /** Refuses with `error.otp.step.up.required`, `error.otp.invalid` or `error.otp.reused`, or lets the call go on. */
  async confirm(userUuid: string, code: string | undefined, at: Date): Promise<void> {
    const record = await this.store.find(userUuid);
    const enabled = record?.status === 'ACTIVE';
    if (!enabled) return;
    const check: StepUpCheck =
      code === undefined || code.trim() === '' ? 'NONE' : await this.store.checkStepUpCode(userUuid, code, at);
    const refusal = stepUpRefusal(enabled, check);
    if (refusal !== null) throw new ApiError(refusal);
  }
}
