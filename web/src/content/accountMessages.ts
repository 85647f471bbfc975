/**
 * Words of the account pages. The spec's own texts (§2, §4, §8) are kept word
 * for word and marked "spec"; the rest is ours, where the spec is silent.
 */

export const signInMessages = {
  /** spec §8, with the server's message as the body. */
  failedTitle: 'Login Failed!',
  /** spec §2 "Header and menus". */
  loggedOut: 'Logout Success!',
} as const;

export const registrationMessages = {
  /** spec §4 "Sign-up". */
  confirmTitle: 'Confirm Email',
  confirmText: 'Please check your email and verify.',
  /** spec §8, with the server's message as the body. */
  failedTitle: 'Registration Failed!',
  /** spec §4 "Sign-up": when no reason came back (no answer, or a fault on our side). */
  errorTitle: 'Sign up error',
  errorText: 'Could not complete sign up at this time',
  /** Registered, but the automatic sign-in after it failed (e.g. rate limited). */
  signInAfterwards: 'Your account is ready. Please sign in to continue.',
  /** Step 1's answer, invited or not, beside the server's own words (INVITATION_LINK_SENT). */
  linkSentTitle: 'Check your email',
  linkSentHint:
    'Open the link in that email to join your team. Nothing after a few minutes? Check the address with your manager, or invite your manager to the product.',
  inviteManagerSentTitle: 'Invitation sent',
  inviteManagerSent: (email: string) => `We emailed ${email} an invitation to set up a team.`,
  inviteManagerFailedTitle: 'Could not send the invitation',
  checkFailedTitle: 'Could not check the invitation',
} as const;

export const verificationMessages = {
  resentTitle: 'Verification email sent',
  resent: (email: string) => `We sent a new link to ${email}.`,
  resendFailedTitle: 'Could not resend the email',
  verifiedTitle: 'Email verified',
  verifiedSignIn: 'Your email address is verified. Please sign in to continue.',
  /** The same link opened again (ours: decisions.md "Verification link opened again"). */
  alreadyVerifiedTitle: 'Your email is already verified',
  alreadyVerifiedLead: 'This link was used before, and your email address is verified. Nothing else to do.',
} as const;

export const passwordMessages = {
  /** spec §5 "Reset" (the server's PASSWORDS_DIFFER too). */
  mismatch: 'Passwords do not match!',
  /** spec §4 "Password recovery". */
  sent: 'We sent you an email with the instructions',
  updated: 'Password update request is sent',
  failedTitle: 'Password recovery failed',
  resetFailedTitle: 'Could not change the password',
} as const;

export const profileMessages = {
  /** spec §8. */
  saved: 'Update succeeded',
  saveFailedTitle: 'The account update could not be saved',
  saveFailedText: 'Please contact us if the problem persists',
  deleteFailedTitle: 'The account could not be deleted',
  /** spec §2 /editProfile. */
  budgetHelper: "This change will take effect in next month's budget update",
} as const;

/** Two-step sign-in: the profile's section, the sign-in code step and the step-up dialog (not in the spec). */
export const changePasswordMessages = {
  title: 'Password',
  lead: 'Change the password you sign in with. Every other place you are signed in is signed out.',
  current: 'Current Password',
  next: 'New Password',
  confirm: 'Confirm New Password',
  submit: 'Change Password',
  done: 'Your password is changed. Every other session is signed out.',
  failedTitle: 'Could not change the password',
} as const;

/** A provider's sign-in that joins an account only with its password, once (issue 24, attack 8; not in the spec). */
export const socialPasswordMessages = {
  title: 'Sign In',
  /** When the server's answer carried no words of its own. */
  lead: 'An account with this email already exists. Enter its password once to sign in this way from now on.',
  submit: 'Continue',
  forgot: 'Forgot password?',
  back: 'Back',
} as const;

export const secondFactorMessages = {
  title: 'Two-step sign-in',
  lead: 'Ask for a code from an authenticator app each time you sign in, and before money leaves your team.',
  setUp: 'Set up authenticator app',
  scan: 'Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy, ...).',
  qrAlt: 'QR code to add this account to your authenticator app',
  manualKey: 'Or enter this key by hand:',
  codeLabel: 'Code from the app',
  codeRequired: 'Code is required',
  turnOn: 'Turn on',
  codesTitle: 'Save your recovery codes now',
  codesLead:
    'Each code signs you in once if you lose your phone. They are shown only this once: keep them somewhere safe.',
  savedThem: 'I have saved them',
  on: 'On.',
  codesLeft: (n: number) => `${n} recovery ${n === 1 ? 'code' : 'codes'} left.`,
  newCodes: 'New recovery codes',
  turnOff: 'Turn off',
  turnOffLead:
    'Enter a code from the app or one of your recovery codes, and your password. The app and your recovery codes stop working, and you are signed out everywhere else.',
  turnOffLabel: 'Code from the app or a recovery code',
  turnOffSubmit: 'Turn off two-step sign-in',
  turnedOff: 'Two-step sign-in is off. You were signed out everywhere else.',
  renewLead:
    'Enter a code from the app or one of your recovery codes, and your password. The recovery codes you have now stop working.',
  proveLead: 'To change two-step sign-in, first confirm it is you.',
  passwordLabel: 'Your password',
  passwordRequired: 'Enter your password.',
  continue: 'Continue',
  useEmailCode: 'No password? Email me a code',
  emailCodeSent: 'We sent an 8-digit code to your email address. It works once, for 15 minutes.',
  emailCodeLabel: 'Code from the email',
  emailCodeRequired: 'Enter the 8-digit code from the email.',
  sendAgain: 'Send a new code',
  usePassword: 'Use my password instead',
  signInTitle: 'Two-step sign-in',
  signInLead: 'Enter the 6-digit code from your authenticator app.',
  signInRecoveryLead: 'Enter one of your recovery codes. Each works once.',
  signInCodeLabel: 'Authentication code',
  signInRecoveryLabel: 'Recovery code',
  useRecovery: 'Use a recovery code instead',
  useApp: 'Use the authenticator app instead',
  verify: 'Verify',
  back: 'Back',
  stepUpTitle: 'Confirm it is you',
  stepUpCodeLead: 'Enter the code from your authenticator app (or a recovery code) to continue.',
  stepUpPasswordLead: 'Enter your password to continue.',
  confirm: 'Confirm',
  cancel: 'Cancel',
} as const;
