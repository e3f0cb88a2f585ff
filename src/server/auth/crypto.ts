import { createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/** A fresh random identifier or token, URL-safe. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** SHA-256 of a secret token: only the hash is stored, so a leaked database opens no session. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** HMAC-SHA256 with the server secret. */
export const hmac = (secret: Buffer, value: string) => createHmac('sha256', secret).update(value).digest('base64url');

/** Compares two strings in constant time. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A six-digit one-time code. */
export const otpCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

function scryptAsync(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, 32, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/**
 * Hashes a password with scrypt, a memory-hard KDF (OWASP: N=2^17, r=8, p=1 = 128 MiB).
 * The parameters travel inside the hash so the cost can be raised later.
 * @example await hashPassword('secret123', 17) // 'scrypt$17$8$1$<salt>$<key>'
 */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 2 ** logN, 8, 1);
  return ['scrypt', logN, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const derived = await scryptAsync(password, Buffer.from(salt, 'base64url'), 2 ** Number(logN), Number(r), Number(p));
  return timingSafeEqual(derived, Buffer.from(key, 'base64url'));
}

/** True when a stored hash was made with other parameters than the current cost: rehash it at the next sign-in. */
export function needsRehash(stored: string, logN: number): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== logN || r !== '8' || p !== '1';
}
