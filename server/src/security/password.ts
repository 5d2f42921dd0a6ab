import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

// scrypt with N=2^15, r=8: ~100 ms and 32 MiB per hash, a slow memory-hard KDF from Node's own crypto.
const PARAMS = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * A well-formed hash no password is known to match (fixed salt and key), verified in place of a
 * missing or unreadable stored hash so that a login for an unknown or password-less user costs the
 * same KDF work as one for a real user: the response time does not tell which usernames exist.
 */
export const DUMMY_PASSWORD_HASH = 'scrypt$32768$8$1$bWVyaWRpYW4tZHVtbXktc2FsdA$AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';

/** Hashes a password as `scrypt$N$r$p$salt$key` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string | null | undefined): string[] | null {
  const parts = stored?.split('$') ?? [];
  return parts.length === 6 && parts[0] === 'scrypt' ? parts : null;
}

/**
 * Checks a password against a stored hash in constant time. A missing (unknown user) or unknown
 * format never matches, but still runs the KDF once, against DUMMY_PASSWORD_HASH.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = parse(stored);
  const [, n, r, p, salt, key] = parsed ?? parse(DUMMY_PASSWORD_HASH)!;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(expected, actual) && parsed !== null;
}
