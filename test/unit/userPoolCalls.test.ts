/**
 * The user-pool adapter and the table of IAM actions per call
 * (shared/src/api/userPoolCalls.ts) list the same calls, so a new call cannot
 * reach AWS without its rights being written down (and granted to the routes
 * naming it).
 */

import { USER_POOL_CALLS, userPoolActions } from '@shared/api/userPoolCalls';
import { describe, expect, it } from 'vitest';
import * as cognito from '../../lambdas/src/adapters/cognito';

/** Exported functions of the adapter; error classes are exported too and are not calls. */
const adapterCalls = Object.entries(cognito)
  .filter(
    ([, value]) => typeof value === 'function' && !/^class\s/.test(Function.prototype.toString.call(value)),
  )
  .map(([name]) => name)
  .sort();

describe('user-pool calls', () => {
  it('every call of the adapter has its IAM actions written down, and no other', () => {
    expect(Object.keys(USER_POOL_CALLS).sort()).toEqual(adapterCalls);
  });

  it('no call needs a right outside our own users (no pool settings, no listing)', () => {
    for (const action of userPoolActions(Object.keys(USER_POOL_CALLS) as (keyof typeof USER_POOL_CALLS)[])) {
      // Besides admin calls on users: reading our confidential app client (its secret signs
      // password and refresh calls); CDK scopes it to our own pool.
      expect(action).toMatch(
        /^cognito-idp:(Admin(ConfirmSignUp|DeleteUser|GetUser|SetUserPassword|UserGlobalSignOut|DisableUser|EnableUser|LinkProviderForUser|InitiateAuth|RespondToAuthChallenge|CreateUser)|DescribeUserPoolClient)$/,
      );
    }
  });

  it('merges the actions of several calls without repeats', () => {
    expect(userPoolActions(['disableUser', 'signOutEverywhere', 'signOutEverywhere'])).toEqual([
      'cognito-idp:AdminDisableUser',
      'cognito-idp:AdminUserGlobalSignOut',
    ]);
  });
});
