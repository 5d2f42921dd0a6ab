import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts database passwords at rest (AES-256-GCM, key derived from SECRET_KEY with HKDF).
 *
 * @example
 * const crypto = new PasswordCrypto(config.secretKey);
 * crypto.decrypt(crypto.encrypt('s3cret')) // 's3cret'
 */
export class PasswordCrypto {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, 'meridian', 'dbs.password_encrypted', 32));
  }

  /** `v1:<base64url(iv | tag | ciphertext)>`. */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The clear password; throws when the text was not encrypted with this key. */
  decrypt(encrypted: string): string {
    const [version, payload] = encrypted.split(':', 2);
    if (version !== VERSION || !payload) throw new Error('Unknown password encryption format');
    const raw = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
