/**
 * Whether `password` is the account's, asked of Cognito the only way it
 * answers: a password sign-in, whose session is ended at once (only the check
 * was wanted). Step-up, the password change and the proof before a factor
 * change all ask it; callers count the try in the sign-in throttle.
 */
import { InvalidCredentials, passwordSignIn, revokeRefreshToken } from '../../adapters/cognito';

export async function passwordIsRight(email: string, password: string): Promise<boolean> {
  try {
    const tokens = await passwordSignIn(email, password);
    await revokeRefreshToken(tokens.refreshToken);
    return true;
  } catch (error) {
    if (error instanceof InvalidCredentials) return false;
    throw error;
  }
}
