/**
 * Reading the session cookie (lambdas/src/platform/sessionCookie.ts): exactly
 * one cookie of our name with a Cognito user id, or no session at all.
 */
import { describe, expect, it } from 'vitest';
import {
  clearedSessionCookie,
  readSessionCookie,
  SESSION_COOKIE_NAME,
  sessionCookie,
} from '../../lambdas/src/platform/sessionCookie';

const userId = '8e0bd398-def9-4cda-af9c-b96d83e5d346';
const refreshToken = 'eyJjdHkiOiJKV1QifQ.part-two.part_three';
const ours = `${SESSION_COOKIE_NAME}=${userId}:${refreshToken}`;

describe('readSessionCookie', () => {
  it('reads the user id and the refresh token of our one cookie, among others', () => {
    expect(readSessionCookie(['theme=dark', ours])).toEqual({ userId, refreshToken });
  });

  it('reads back what sessionCookie sets', () => {
    const setCookie = sessionCookie({ userId, refreshToken });
    expect(readSessionCookie([setCookie.split(';')[0] as string])).toEqual({ userId, refreshToken });
  });

  it('finds no session without a cookie, with an empty one, or with a cleared one', () => {
    expect(readSessionCookie(undefined)).toBeUndefined();
    expect(readSessionCookie([])).toBeUndefined();
    expect(readSessionCookie([`${SESSION_COOKIE_NAME}=`])).toBeUndefined();
    expect(readSessionCookie([clearedSessionCookie().split(';')[0] as string])).toBeUndefined();
  });

  it('counts neither of two cookies of our name (one may have been planted by a sibling domain)', () => {
    const planted = `${SESSION_COOKIE_NAME}=0d4cf7e3-4ec9-41d0-b787-641465505b58:attacker.token.value`;
    expect(readSessionCookie([planted, ours])).toBeUndefined();
    expect(readSessionCookie([ours, ours])).toBeUndefined();
  });

  it('refuses a user id that is not a Cognito sub, and a value without both parts', () => {
    expect(readSessionCookie([`${SESSION_COOKIE_NAME}=USER#x:${refreshToken}`])).toBeUndefined();
    expect(readSessionCookie([`${SESSION_COOKIE_NAME}=${userId}:`])).toBeUndefined();
    expect(readSessionCookie([`${SESSION_COOKIE_NAME}=:${refreshToken}`])).toBeUndefined();
    expect(readSessionCookie([`${SESSION_COOKIE_NAME}=${refreshToken}`])).toBeUndefined();
  });

  it('sets HttpOnly, Secure, SameSite=Strict on the auth path only', () => {
    const setCookie = sessionCookie({ userId, refreshToken });
    for (const attribute of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/api/auth'])
      expect(setCookie).toContain(`; ${attribute}`);
    expect(clearedSessionCookie()).toContain('Max-Age=0');
  });
});
