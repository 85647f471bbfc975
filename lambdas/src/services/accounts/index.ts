/**
 * Accounts: signing up, in and out, e-mailed links (verification, password
 * reset, invitations), second factors and step-up, social sign-in, password
 * changes, and each person's profile. Depends on billing (a joiner is charged
 * and funded), money (a deleted person's balance goes to the pool, and back
 * when they are reactivated) and cards (the reactivated card's backstop).
 */
export {
  forgotPassword,
  inviteManager,
  refreshSession,
  registerEmployee,
  registerManager,
  resendVerification,
  resetPassword,
  signIn,
  signOut,
  stepUp,
  verifyEmail,
} from './accounts';
export { EMAIL_CAPS, mayEmail } from './emailCaps';
export { BAD_CODE, BAD_PASSWORD, CODE_REQUIRED } from './factorMessages';
export { sendIdentityCode } from './identityProof';
export { INVITATION_LINK_INVALID, sendInvitation, sendInvitationLink } from './invitationLinks';
export { changePassword } from './passwordChange';
export {
  deleteAccount,
  finishWalkthrough,
  getProfile,
  previewBudgetChange,
  removeUser,
  updateProfile,
  whoAmI,
} from './profiles';
export { type Restored, restoreMember } from './restore';
export {
  confirmTotpEnrolment,
  regenerateRecoveryCodes,
  secondFactorStatus,
  startTotpEnrolment,
} from './secondFactor';
export { turnOffSecondFactor } from './secondFactorOff';
export { delayAfter, THROTTLE } from './signInThrottle';
export {
  finishSocialSession,
  joinSocialSignIn,
  SOCIAL_SIGN_IN_EXPIRED,
  SOCIAL_SIGN_IN_FAILED,
  SOCIAL_SIGN_IN_OFF,
  type SocialSignInOutcome,
  socialPasswordRequired,
  startSocialSession,
} from './socialSession';
export { decideSocialSignUp } from './socialSignIn';
