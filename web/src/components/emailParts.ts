/**
 * Where an e-mail address may break across lines: after its "@" and after
 * each "." ("employee-42@" / "example." / "com"), never inside a part (not
 * even at a hyphen, which would read as a hyphenation), so a narrow column
 * reads "employee@ / demo.test" rather than "employee@demo.tes / t".
 */
export function emailParts(email: string): string[] {
  return email.split(/(?<=[@.])/).filter((part) => part !== '');
}

/**
 * A part longer than this may still break anywhere: kept whole, a 300-letter
 * local part would widen its column past the screen.
 */
export const LONGEST_UNBROKEN_PART = 24;

export function mayBreakInside(part: string): boolean {
  return Array.from(part).length > LONGEST_UNBROKEN_PART;
}
