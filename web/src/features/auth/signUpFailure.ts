/**
 * What a failed sign-up says (spec §4): 'Registration Failed!' with the
 * server's message when the server refused it for a reason it names (a taken
 * e-mail, a bad field, too many tries); 'Sign up error' / 'Could not complete
 * sign up at this time' when no such reason came back (no answer, or a fault
 * on our side), where the server's words would only confuse.
 */
import { ApiError, errorMessage } from '../../api/errors';
import { registrationMessages } from '../../content/accountMessages';

export function signUpFailure(error: unknown): { title: string; message: string } {
  const refusedWithReason = error instanceof ApiError && error.status >= 400 && error.status < 500;
  if (refusedWithReason) return { title: registrationMessages.failedTitle, message: errorMessage(error) };
  return { title: registrationMessages.errorTitle, message: registrationMessages.errorText };
}
