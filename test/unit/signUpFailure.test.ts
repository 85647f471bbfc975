/** Which of the spec's two sign-up failure notices (§4) each kind of failure gets. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/src/api/errors';
import { signUpFailure } from '../../web/src/features/auth/signUpFailure';

describe('a failed sign-up', () => {
  it("shows 'Registration Failed!' with the server's reason when the server refused it", () => {
    const taken = new ApiError('CONFLICT', 'An account with this email already exists', { status: 409 });
    expect(signUpFailure(taken)).toEqual({
      title: 'Registration Failed!',
      message: 'An account with this email already exists',
    });
    const limited = new ApiError('RATE_LIMITED', 'Too many sign-ups from here. Try again later.', {
      status: 429,
    });
    expect(signUpFailure(limited).title).toBe('Registration Failed!');
  });

  it("shows 'Sign up error' / 'Could not complete sign up at this time' when no reason came back", () => {
    const expected = { title: 'Sign up error', message: 'Could not complete sign up at this time' };
    expect(signUpFailure(new ApiError('NETWORK_ERROR', ''))).toEqual(expected);
    expect(signUpFailure(new ApiError('INTERNAL', 'Something went wrong', { status: 500 }))).toEqual(
      expected,
    );
    expect(signUpFailure(new ApiError('UPSTREAM_FAILED', '', { status: 503 }))).toEqual(expected);
    expect(signUpFailure(new TypeError('x is undefined'))).toEqual(expected);
  });
});
