import { recoveryCodeCheck, stepUpRefusal, totpCheck } from './step-up.rules';

describe('step-up codes (ADR 0098)', () => {
  describe('a TOTP code, by its time-step and the last accepted one', () => {
    it('is wrong when it belongs to no step near now', () => {
      expect(totpCheck(null, null)).toBe('WRONG');
      expect(totpCheck(null, 100)).toBe('WRONG');
    });

    it('is fresh after the last accepted step, or when none was accepted yet', () => {
      expect(totpCheck(100, null)).toBe('FRESH');
      expect(totpCheck(101, 100)).toBe('FRESH');
    });

    it('is a replay at or before the last accepted step', () => {
      expect(totpCheck(100, 100)).toBe('REUSED');
      expect(totpCheck(99, 100)).toBe('REUSED');
    });
  });

  describe('a recovery code', () => {
    it('is wrong when unknown, fresh while unused, reused once spent', () => {
      expect(recoveryCodeCheck(null)).toBe('WRONG');
      expect(recoveryCodeCheck({ usedAt: null })).toBe('FRESH');
      expect(recoveryCodeCheck({ usedAt: new Date('2026-03-01T10:00:00Z') })).toBe('REUSED');
    });
  });

  describe('the refusal', () => {
    it('is none without two-factor sign-in, whatever was sent', () => {
      for (const check of ['NONE', 'FRESH', 'REUSED', 'WRONG'] as const) expect(stepUpRefusal(false, check)).toBeNull();
    });

    it('names what is wrong with it on', () => {
      expect(stepUpRefusal(true, 'FRESH')).toBeNull();
      expect(stepUpRefusal(true, 'NONE')).toBe('error.otp.step.up.required');
      expect(stepUpRefusal(true, 'WRONG')).toBe('error.otp.invalid');
      expect(stepUpRefusal(true, 'REUSED')).toBe('error.otp.reused');
    });
  });
});
