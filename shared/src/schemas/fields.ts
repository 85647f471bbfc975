/**
 * The shared field check of spec §5, used by the browser forms and the server
 * schemas alike so both say the same thing about the same input.
 */

/** Local part, @, a domain with a dot, and an alphabetic ending of 2+ characters (spec §5). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;

/** decisions.md: at least 8 characters (stricter than the spec's "more than 6"). */
export const PASSWORD_MIN_LENGTH = 8;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export function isPassword(value: string): boolean {
  return value.length >= PASSWORD_MIN_LENGTH;
}

/**
 * Spec §5 "shared field check": every field present in both `values` and
 * `required` is tested. E-mail fields must look like an e-mail, password fields
 * must be long enough, anything else must be non-empty after trimming.
 */
export function checkFields<K extends string>(
  values: Partial<Record<K, string>>,
  required: readonly K[],
): { fields: Partial<Record<K, boolean>>; hasError: boolean } {
  const fields: Partial<Record<K, boolean>> = {};
  for (const name of required) {
    const value = values[name];
    if (value === undefined) continue;
    let invalid: boolean;
    if (/email/i.test(name)) invalid = !isEmail(value);
    else if (/password/i.test(name)) invalid = !isPassword(value);
    else invalid = value.trim() === '';
    fields[name] = invalid;
  }
  return { fields, hasError: Object.values(fields).some(Boolean) };
}

/** Lower-cased, trimmed e-mail: the form in which e-mails are keys and compared. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
