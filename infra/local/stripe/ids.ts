/** Stripe-looking identifiers and secrets: a prefix and random base62 characters. */
import { createHash, randomBytes, randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: drop the top bytes so every character is equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** `newId('cus')` -> "cus_Qx7...", 24 characters after the prefix like Stripe's newer ids. */
export function newId(prefix: string, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}

export function randomDigits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(randomInt(10));
  return out;
}

/** Stripe gives the same card number the same fingerprint, so duplicates can be spotted. */
export function cardFingerprint(number: string): string {
  const digest = createHash('sha256').update(`card:${number}`).digest();
  let out = '';
  for (const byte of digest.subarray(0, 16)) out += ALPHABET[byte % 62];
  return out;
}
