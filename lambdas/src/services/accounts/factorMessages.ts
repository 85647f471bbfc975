/**
 * What the API says when a factor is missing or wrong, in one place: sign-in,
 * step-up, turning the authenticator off and new recovery codes all take the
 * same code (the app's current one or a recovery code), so a wrong one reads
 * the same wherever it is typed (the walk found the step-up's own wording).
 */
export const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app.';
export const BAD_CODE = 'That code is not valid. Try the current code, or one of your recovery codes.';
/** A step-up for an account without an authenticator takes the password instead. */
export const PASSWORD_REQUIRED = 'Enter your password.';
export const BAD_PASSWORD = 'That password is not right. Try again, or reset it from the sign-in page.';
