import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUuid } from './uuid';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns a version-4 UUID from crypto.randomUUID', () => {
    expect(randomUuid()).toMatch(uuidV4);
  });

  it('builds a version-4 UUID from random bytes where crypto.randomUUID is missing (plain HTTP)', () => {
    vi.stubGlobal('crypto', { getRandomValues: (array: Uint8Array) => array.fill(0xff) });
    expect(randomUuid()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});
