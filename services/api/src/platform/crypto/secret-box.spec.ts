import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox('root key', 'subscription passwords');

  it('opens what it sealed, for the same associated data only', () => {
    const sealed = box.seal('Hunter2 !', 'subscription-1/3');
    expect(sealed).not.toContain('Hunter2');
    expect(box.open(sealed, 'subscription-1/3')).toBe('Hunter2 !');
    expect(() => box.open(sealed, 'subscription-2/3')).toThrow();
  });

  it('seals the same text differently each time', () => {
    expect(box.seal('same', 'a')).not.toBe(box.seal('same', 'a'));
  });

  it('cannot open what a box of another purpose or another root key sealed', () => {
    const sealed = box.seal('secret', 'a');
    expect(() => new SecretBox('root key', 'two-factor secrets').open(sealed, 'a')).toThrow();
    expect(() => new SecretBox('another root key', 'subscription passwords').open(sealed, 'a')).toThrow();
  });

  it('refuses a value that was tampered with', () => {
    const [version, iv, tag, ciphertext] = box.seal('secret', 'a').split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([version, iv, tag, flipped.toString('base64url')].join('.'), 'a')).toThrow();
    expect(() => box.open(`v0.${iv}.${tag}.${ciphertext}`, 'a')).toThrow(/format/);
  });
});
