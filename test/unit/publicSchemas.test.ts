import { fieldErrorsOf } from '@shared/schemas/common';
import { joinWaitlistInput, sendContactMessageInput } from '@shared/schemas/public';
import { describe, expect, it } from 'vitest';

function errors(schema: typeof joinWaitlistInput | typeof sendContactMessageInput, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrorsOf(result.error);
}

describe('waitlist input', () => {
  it('trims, lower-cases the e-mail and drops a blank company', () => {
    expect(joinWaitlistInput.parse({ name: ' Ada ', email: ' Ada@Example.com ', company: '   ' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
    });
  });

  it.each([
    [{}, { name: 'Name is required', email: 'Email is required' }],
    [
      { name: ' ', email: ' ' },
      { name: 'Name is required', email: 'Email is required' },
    ],
    [{ name: 'Ada', email: 'ada@' }, { email: 'Email is invalid' }],
    [{ name: 'A'.repeat(101), email: 'ada@example.com' }, { name: 'Must be at most 100 characters' }],
    [{ name: 42, email: 'ada@example.com' }, { name: 'Name is required' }],
  ])('%j -> %j', (input, expected) => {
    expect(errors(joinWaitlistInput, input)).toEqual(expected);
  });
});

describe('contact input', () => {
  it("uses the spec's wording: an empty message reads 'Subject is required'", () => {
    expect(errors(sendContactMessageInput, { name: 'Ada', email: 'ada@example.com', message: '' })).toEqual({
      message: 'Subject is required',
    });
  });

  it('does not require a subject', () => {
    const parsed = sendContactMessageInput.parse({ name: 'Ada', email: 'ada@example.com', message: 'Hi' });
    expect(parsed.subject).toBeUndefined();
  });

  it('bounds the message length', () => {
    expect(
      errors(sendContactMessageInput, { name: 'Ada', email: 'ada@example.com', message: 'x'.repeat(5001) }),
    ).toEqual({ message: 'Message must be at most 5000 characters' });
  });
});
