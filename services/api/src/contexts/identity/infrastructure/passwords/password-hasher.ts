import { Injectable } from '@nestjs/common';
import { argon2id, hash, verify } from 'argon2';

/** argon2id hashing. Sign-in for an unknown e-mail verifies against a dummy hash to take the same time. */
@Injectable()
export class PasswordHasher {
  private dummyHash: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return hash(password, { type: argon2id });
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
