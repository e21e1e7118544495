import { loadConfig, PASSWORD_HASH_COST, type AppConfig } from '../../../../platform/config';
import { PasswordHasher } from './password-hasher';

function hasherAt(cost: AppConfig['passwordHashCost']): PasswordHasher {
  return new PasswordHasher({ passwordHashCost: cost } as AppConfig);
}

describe('PasswordHasher', () => {
  it('hashes at the production cost whatever the environment says', () => {
    const config = loadConfig({ KUPA_DATA_DIR: '/tmp/kupa-hasher-spec', PASSWORD_HASH_COST: '1' });
    expect(config.passwordHashCost).toEqual({ memoryKib: 65_536, passes: 3, lanes: 4 });
    expect(config.passwordHashCost).toBe(PASSWORD_HASH_COST);
  });

  it('writes the cost into the hash, argon2id', async () => {
    const hash = await hasherAt(PASSWORD_HASH_COST).hash('Client-Pass-1!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
  });

  it('verifies a hash made at another cost, and refuses a wrong password', async () => {
    const cheap = await hasherAt({ memoryKib: 1024, passes: 1, lanes: 1 }).hash('Client-Pass-1!');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    const production = hasherAt(PASSWORD_HASH_COST);
    expect(await production.verify(cheap, 'Client-Pass-1!')).toBe(true);
    expect(await production.verify(cheap, 'Client-Pass-2!')).toBe(false);
    expect(await production.verify('not a hash', 'Client-Pass-1!')).toBe(false);
  });
});
