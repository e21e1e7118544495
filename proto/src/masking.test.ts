import { describe, expect, it } from 'vitest';
import { maskEmail } from './masking';

describe('maskEmail', () => {
  it('keeps the first character of the local part and of the domain, and the domain from its first dot', () => {
    expect(maskEmail('dana.cohen@example.co.il')).toBe('d***@e***.co.il');
    expect(maskEmail('x@gmail.com')).toBe('x***@g***.com');
  });

  it('hides how long the hidden parts were', () => {
    expect(maskEmail('a@b.io')).toBe(maskEmail('abcdefgh@bcdefgh.io'));
  });

  it('never answers with the address itself, even when it is malformed', () => {
    for (const odd of ['no-at-sign', '@example.com', 'dana@', 'dana@localhost']) {
      expect(maskEmail(odd), odd).not.toBe(odd);
      expect(maskEmail(odd)).toContain('***');
    }
  });
});
