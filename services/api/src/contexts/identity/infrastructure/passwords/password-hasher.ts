import { Inject, Injectable } from '@nestjs/common';
import { argon2id, hash, verify } from 'argon2';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';

/**
 * argon2id hashing at the configured cost. A hash carries its own parameters, so one made at another cost still
 * verifies. Sign-in for an unknown e-mail verifies against a dummy hash to take the same time.
 */
@Injectable()
export class PasswordHasher {
  private dummyHash: Promise<string> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  hash(password: string): Promise<string> {
    const { memoryKib, passes, lanes } = this.config.passwordHashCost;
    return hash(password, { type: argon2id, memoryCost: memoryKib, timeCost: passes, parallelism: lanes });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the time of a real verification and always answers false. */
  async verifyNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash('Dummy-password-for-timing-1!');
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
