import { checkFields, isEmail, isPassword, normalizeEmail } from '@shared/schemas/fields';
import { describe, expect, it } from 'vitest';

describe('the shared field check (spec §5)', () => {
  it.each([
    ['ada@example.com', true],
    ['ADA@EXAMPLE.COM', true],
    ['first.last+tag@sub.example.co', true],
    ['a@b.io', true],
    ['no-at-sign.example.com', false],
    ['ada@example', false],
    ['ada@example.c', false],
    ['ada@example.c0m', false],
    ['ada @example.com', false],
    ['@example.com', false],
    ['', false],
  ])('e-mail %j is valid: %s', (email, valid) => {
    expect(isEmail(email)).toBe(valid);
  });

  it.each([
    ['', false],
    ['123456', false],
    ['1234567', false],
    ['12345678', true],
    ['a much longer passphrase', true],
  ])('password %j is long enough (8+, decisions.md): %s', (password, valid) => {
    expect(isPassword(password)).toBe(valid);
  });

  it('flags each failing field and sets the overall error flag', () => {
    const result = checkFields({ email: 'bad', password: 'short', firstName: '  ' }, [
      'email',
      'password',
      'firstName',
    ]);
    expect(result).toEqual({ fields: { email: true, password: true, firstName: true }, hasError: true });
  });

  it('passes when every checked field is valid', () => {
    const result = checkFields({ email: 'ada@example.com', password: 'long enough', firstName: 'Ada' }, [
      'email',
      'password',
      'firstName',
    ]);
    expect(result).toEqual({ fields: { email: false, password: false, firstName: false }, hasError: false });
  });

  it('checks only fields present in both the values and the list', () => {
    const result = checkFields<'email' | 'password' | 'company'>({ email: 'ada@example.com', company: '' }, [
      'email',
      'password',
    ]);
    expect(result.fields).toEqual({ email: false });
    expect(result.hasError).toBe(false);
  });

  it('normalizes e-mails for use as keys', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});
