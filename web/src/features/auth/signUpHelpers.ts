import type { RouteInput } from '@shared/api/routes';
import type { NavigateFunction } from 'react-router-dom';
import { call } from '../../api/client';
import { ApiError } from '../../api/errors';
import { useSession } from '../../auth/sessionStore';
import { registrationMessages } from '../../content/accountMessages';
import { notify, settleNotices } from '../../stores/notifications';
import { signUpFailure } from './signUpFailure';

/**
 * After a successful sign-up (spec §4): sign the new person in, ask them to
 * confirm their e-mail, and go to /verifyEmail. If the sign-in itself fails
 * (rate limited, say) the account still exists: say so and offer /login.
 */
export async function finishSignUp(email: string, password: string, navigate: NavigateFunction) {
  try {
    await useSession.getState().signIn(email, password);
  } catch {
    notify({
      kind: 'info',
      title: registrationMessages.confirmTitle,
      message: registrationMessages.confirmText,
    });
    notify({ kind: 'info', message: registrationMessages.signInAfterwards });
    navigate('/login');
    return;
  }
  notify({
    kind: 'success',
    title: registrationMessages.confirmTitle,
    message: registrationMessages.confirmText,
  });
  navigate('/verifyEmail');
}

/** The failure's notice (signUpFailure); a 400's field messages also go under their fields. */
export function reportSignUpError(
  error: unknown,
  applyServerErrors: (fields: ApiError['fields']) => boolean,
) {
  if (error instanceof ApiError && error.status === 400) applyServerErrors(error.fields);
  notify({ kind: 'error', ...signUpFailure(error), about: 'signUp' });
}

/**
 * The whole sign-up submit, shared by both registration forms: create the
 * account, then sign in and continue (true); or report the failure (false).
 */
export async function signUp<Op extends 'registerManager' | 'registerEmployee'>(
  operation: Op,
  input: RouteInput<Op> & { email: string; password: string },
  applyServerErrors: (fields: ApiError['fields']) => boolean,
  navigate: NavigateFunction,
): Promise<boolean> {
  try {
    await call(operation, input);
  } catch (error) {
    reportSignUpError(error, applyServerErrors);
    return false;
  }
  settleNotices('signUp');
  await finishSignUp(input.email, input.password, navigate);
  return true;
}
