/**
 * What survives a reload: the e-mail and refresh token of the session, in
 * localStorage, so a reload (or a new tab) stays signed in. The access token
 * is never stored; it lives in memory only (session.ts) and is fetched again
 * with the refresh token.
 *
 * No imports here on purpose: the guard in the main chunk reads this to know
 * whether a session may exist, without loading the API client.
 */

export const CREDENTIALS_KEY = 'lb.auth';

export interface StoredCredentials {
  /** How the session was made: our sign-in API, or a social redirect (refreshed by Amplify). */
  kind: 'password' | 'social';
  email: string;
  /** Only for `password` sessions; social sessions keep theirs in Amplify's own storage. */
  refreshToken?: string;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function readCredentials(): StoredCredentials | null {
  try {
    const raw = storage()?.getItem(CREDENTIALS_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredCredentials> | null;
    if (!value || typeof value.email !== 'string' || value.email === '') return null;
    if (value.kind === 'social') return { kind: 'social', email: value.email };
    if (typeof value.refreshToken !== 'string' || value.refreshToken === '') return null;
    return { kind: 'password', email: value.email, refreshToken: value.refreshToken };
  } catch {
    return null;
  }
}

export function writeCredentials(credentials: StoredCredentials): void {
  try {
    storage()?.setItem(CREDENTIALS_KEY, JSON.stringify(credentials));
  } catch {
    // Storage blocked or full: the session then lasts until the tab closes.
  }
}

export function clearCredentials(): void {
  try {
    storage()?.removeItem(CREDENTIALS_KEY);
  } catch {
    // As above.
  }
}
