/** Where the Employees table lets an e-mail address wrap: after "@" and ".", never inside a part. */
import { describe, expect, it } from 'vitest';
import { emailParts, LONGEST_UNBROKEN_PART, mayBreakInside } from '../../web/src/components/emailParts';

describe('emailParts', () => {
  it('breaks after the @ and after every dot', () => {
    expect(emailParts('employee@demo.test')).toEqual(['employee@', 'demo.', 'test']);
    expect(emailParts('first.last@mail.example.co.uk')).toEqual([
      'first.',
      'last@',
      'mail.',
      'example.',
      'co.',
      'uk',
    ]);
  });

  it('keeps the address whole, letter for letter', () => {
    for (const address of ['a@b.test', 'x..y@z.', '.lead@host', 'no-at-sign', ''])
      expect(emailParts(address).join('')).toBe(address);
  });

  it('leaves an address without @ or dot in one piece', () => {
    expect(emailParts('averyveryverylongname')).toEqual(['averyveryverylongname']);
  });
});

describe('mayBreakInside', () => {
  it('keeps an ordinary part whole, and lets only one too long for any cell break', () => {
    expect(mayBreakInside('employee-57506349@')).toBe(false);
    expect(mayBreakInside(`${'x'.repeat(LONGEST_UNBROKEN_PART - 1)}@`)).toBe(false);
    expect(mayBreakInside(`${'x'.repeat(LONGEST_UNBROKEN_PART)}@`)).toBe(true);
    expect(mayBreakInside(`${'x'.repeat(300)}@`)).toBe(true);
  });
});
