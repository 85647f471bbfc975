/**
 * The IAM actions behind each call of the user-pool adapter
 * (lambdas/src/adapters/cognito.ts), one line per exported function. A route
 * names the calls it makes (`userPool:<call>` in its `uses`) and CDK grants the
 * union of their actions on our own pool, nothing else. When a call changes
 * (say sign-in moves to AdminInitiateAuth) its line here changes, and every
 * route making it follows. test/unit/userPoolCalls.test.ts fails when the
 * adapter exports a call that is missing here.
 *
 * Calls with no actions (SignUp, InitiateAuth, RevokeToken) are Cognito's
 * public API: the app client id is the credential, no IAM right is involved.
 */
export const USER_POOL_CALLS = {
  /** SignUp (public), then AdminConfirmSignUp: our own e-mail check runs separately. */
  createConfirmedUser: ['cognito-idp:AdminConfirmSignUp'],
  deleteUser: ['cognito-idp:AdminDeleteUser'],
  passwordSignIn: [],
  refreshTokens: [],
  setPassword: ['cognito-idp:AdminSetUserPassword'],
  signOutEverywhere: ['cognito-idp:AdminUserGlobalSignOut'],
  disableUser: ['cognito-idp:AdminDisableUser'],
  loginCreatedAt: ['cognito-idp:AdminGetUser'],
  revokeRefreshToken: [],
  /** The pre-sign-up trigger's only call (statefulStack grants it, on any pool: see nag.ts). */
  linkSocialIdentity: ['cognito-idp:AdminLinkProviderForUser'],
} as const satisfies Record<string, readonly `cognito-idp:${string}`[]>;

export type UserPoolCall = keyof typeof USER_POOL_CALLS;

/** The IAM actions a set of calls needs, sorted and without repeats. */
export function userPoolActions(calls: readonly UserPoolCall[]): string[] {
  return [...new Set(calls.flatMap((call) => USER_POOL_CALLS[call]))].sort();
}
