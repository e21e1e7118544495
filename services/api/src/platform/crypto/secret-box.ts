import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const CIPHER = 'aes-256-gcm';
const SEALED_FORMAT_VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

/**
 * Encrypts secrets we must be able to read back (staff authenticator secrets, streaming-service passwords waiting to
 * be provisioned) with AES-256-GCM, under a key derived from a root key for one purpose: two boxes of different
 * purposes on the same root key cannot open each other's secrets. The associated data names what the secret belongs
 * to (a user, a subscription's version), so a sealed value copied onto another row does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(rootKey: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', rootKey, 'kupa', purpose, KEY_BYTES));
  }

  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [SEALED_FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plaintext; throws when the value was not sealed by this box for this associated data. */
  open(sealed: string, associatedData: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== SEALED_FORMAT_VERSION) throw new Error(`Unknown sealed secret format ${version}`);
    const decipher = createDecipheriv(CIPHER, this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
