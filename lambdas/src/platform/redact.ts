/**
 * The last line of defence for logs: callers pass only the fields they mean to
 * record, but a field name or an error message can still carry a secret. Every
 * log line goes through `redactValue` (as the JSON replacer), which
 *   - hides the value of any field whose name says it is a secret (password,
 *     token, secret, authorization, cookie, card number, cvc...);
 *   - masks anything in a string that looks like a card number (13-19 digits
 *     starting 2-6, spaces or dashes allowed, passing the Luhn check), keeping
 *     the last four;
 *   - hides Stripe secret keys, webhook secrets and JWTs found inside strings.
 */
export const REDACTED = '[redacted]';

/** Field names whose values are never logged, whatever they hold. */
const SECRET_KEY =
  /(pass(word|phrase)?|secret|token|authorization|cookie|api[-_]?key|private[-_]?key|^cvc$|^cvv$|^pan$|card[-_]?number|^number$|credential)/i;

/** Keys that look secret by the pattern above but are not: counts, ids and the like. */
const SAFE_KEYS = new Set(['tokenUse', 'token_use', 'tokensIssued']);

/**
 * 13-19 digits, optionally grouped by single spaces or dashes, not inside a
 * longer number, starting as the card networks' numbers do (2-6: Mastercard,
 * Amex, Visa, Discover...), so epoch milliseconds (1...) are never taken for one.
 */
const CARD_LIKE = /(?<![\d])[2-6](?:[ -]?\d){12,18}(?![\d])/g;
const STRIPE_SECRET = /\b(sk|rk)_(test|live)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9]+/g;
const JWT = /\beyJ[\w-]{5,}\.eyJ[\w-]{5,}\.[\w-]+/g;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function isSecretKey(key: string): boolean {
  return !SAFE_KEYS.has(key) && SECRET_KEY.test(key);
}

/** A string with card numbers masked (last four kept) and known secret shapes removed. */
export function redactText(text: string): string {
  let out = text.replace(CARD_LIKE, (match) => {
    const digits = match.replace(/\D/g, '');
    return luhnValid(digits) ? `[card ****${digits.slice(-4)}]` : match;
  });
  if (out.includes('_')) out = out.replace(STRIPE_SECRET, REDACTED);
  if (out.includes('eyJ')) out = out.replace(JWT, REDACTED);
  return out;
}

/** JSON.stringify replacer: hides secret-named fields and masks secrets inside strings. */
export function redactValue(key: string, value: unknown): unknown {
  if (key !== '' && isSecretKey(key) && value !== undefined && value !== null && value !== '') {
    return REDACTED;
  }
  if (typeof value === 'string') return redactText(value);
  return value;
}
