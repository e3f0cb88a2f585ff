import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The server secret that signs CSRF tokens and OTP hashes: CSAI_SECRET when set, else a
 * random key kept in the data folder (created once, readable only by the owner).
 */
export function loadSecret(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  const file = path.join(dataDir, 'secret.key');
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32).toString('base64url');
    try {
      fs.writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
    } catch {
      // Another process created it first: use theirs.
      return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64url');
    }
    return Buffer.from(key, 'base64url');
  }
}
