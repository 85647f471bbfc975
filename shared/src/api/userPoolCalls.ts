/**
 * The IAM actions behind each call of the user-pool adapter
 * (lambdas/src/adapters/cognito.ts), one line per exported function. A route
 * names the calls it makes (`userPool:<call>` in its `uses`) and CDK grants the
 * union of their actions on our own pool, nothing else. When a call changes
 * (say sign-in moves to AdminInitiateAuth) its line here changes, and every
 * route making it follows. test/unit/userPoolCalls.test.ts fails when the
 * adapter exports a call that is missing here.
 *
 * InitiateAuth and RevokeToken are Cognito's public API (the app client id
 * and its secret are the credential); reading that secret is the IAM right.
 */
export const USER_POOL_CALLS = {
  /**
   * AdminCreateUser (self sign-up is off), then AdminSetUserPassword; the user
   * is deleted again if the password is refused. Our own e-mail check runs separately.
   */
  createConfirmedUser: [
    'cognito-idp:AdminCreateUser',
    'cognito-idp:AdminDeleteUser',
    'cognito-idp:AdminSetUserPassword',
  ],
  deleteUser: ['cognito-idp:AdminDeleteUser'],
  /**
   * InitiateAuth on the confidential client with SECRET_HASH: the secret is
   * read from the pool (DescribeUserPoolClient), the only right it needs.
   */
  passwordSignIn: ['cognito-idp:DescribeUserPoolClient'],
  refreshTokens: ['cognito-idp:DescribeUserPoolClient'],
  setPassword: ['cognito-idp:AdminSetUserPassword'],
  signOutEverywhere: ['cognito-idp:AdminUserGlobalSignOut'],
  disableUser: ['cognito-idp:AdminDisableUser'],
  enableUser: ['cognito-idp:AdminEnableUser'],
  loginCreatedAt: ['cognito-idp:AdminGetUser'],
  revokeRefreshToken: ['cognito-idp:DescribeUserPoolClient'],
  /** RevokeToken on the public web client: no secret to read, no IAM right. */
  revokeWebClientToken: [],
  /** The pre-sign-up trigger's only call (statefulStack grants it, on any pool: see nag.ts). */
  linkSocialIdentity: ['cognito-idp:AdminLinkProviderForUser'],
  /** Social sign-in: whose provider sign-in a token of a user the trigger did not link is. */
  federatedLogin: ['cognito-idp:AdminGetUser'],
  /** Social sign-in, once the account's password is given: that provider user is deleted, its identity linked. */
  joinFederatedLogin: ['cognito-idp:AdminDeleteUser', 'cognito-idp:AdminLinkProviderForUser'],
} as const satisfies Record<string, readonly `cognito-idp:${string}`[]>;

export type UserPoolCall = keyof typeof USER_POOL_CALLS;

/** The IAM actions a set of calls needs, sorted and without repeats. */
export function userPoolActions(calls: readonly UserPoolCall[]): string[] {
  return [...new Set(calls.flatMap((call) => USER_POOL_CALLS[call]))].sort();
}
