/**
 * What a stranger may put into an e-mail we send on their behalf: only their
 * name, reduced to letters (any script), combining marks, spaces, apostrophes
 * and hyphens, and cut to 40 characters. Without digits, dots, slashes, colons
 * or @ no link, address or phone number can be smuggled into our mail; without
 * control or bidi characters the text reads as it is stored.
 */
export const MAX_NAME_IN_EMAIL = 40;

export function safeNameForEmail(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const letters = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}' -]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = Array.from(letters).slice(0, MAX_NAME_IN_EMAIL).join('').trim();
  return cut === '' ? undefined : cut;
}
