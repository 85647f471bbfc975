import { MAX_NAME_IN_EMAIL, safeNameForEmail } from '@shared/domain/emailText';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('safeNameForEmail', () => {
  it('keeps names in any script, with apostrophes and hyphens', () => {
    expect(safeNameForEmail("  Zoë O'Brien-Smith ")).toBe("Zoë O'Brien-Smith");
    expect(safeNameForEmail('山田 太郎')).toBe('山田 太郎');
  });

  it('leaves no link, address, digit, control or bidi character, and nothing empty', () => {
    expect(safeNameForEmail('see www.evil.example or mail@evil.example')).toBe(
      'see www evil example or mail evil exampl',
    );
    expect(safeNameForEmail('\u202E\u0000\r\n12345')).toBeUndefined();
    expect(safeNameForEmail(undefined)).toBeUndefined();
  });

  it('for any input: at most 40 characters of letters, marks, spaces, apostrophes and hyphens', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (input) => {
        const name = safeNameForEmail(input);
        if (name === undefined) return;
        expect(Array.from(name).length).toBeLessThanOrEqual(MAX_NAME_IN_EMAIL);
        expect(name).toMatch(/^[\p{L}\p{M}' -]+$/u);
        expect(name).toBe(name.trim());
      }),
      { numRuns: 200 },
    );
    // A hang guard, not a speed check: 200 runs took over 5 s on a 2-core machine under load.
  }, 60_000);
});
