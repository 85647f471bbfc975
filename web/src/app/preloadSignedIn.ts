/**
 * A signed-in person's first load of a signed-in address, started just after
 * React's first paint (main.tsx; that paint is the frame's outline and the
 * page's heading, ./FrameSkeleton.tsx). Rendered in order, it was a chain: the
 * app's code, then the signed-in frame's code, then (the frame rendered) the
 * session's code, then POST /auth/refresh, then GET /me, then (the route guard
 * let the page through) the page's code, then the page's data. Here the
 * frame's code, the page's code and the session's restoration (its code and
 * POST /auth/refresh, which answers /me's question too) start together, so
 * the page renders as soon as the refresh has answered.
 *
 * Nothing changes in what is shown: the route guard (RequireRole) still waits
 * for the session and still sends anyone not signed in away with its message.
 * Without the session marker nobody can be signed in here, and nothing starts
 * (the guard sends the visitor away without these downloads).
 */
import { matchPath } from 'react-router-dom';
import { readSessionKind } from '../auth/sessionMarker';
import { ensureSession } from '../auth/sessionStore';
import { loadSignedInLayout, signedInPageLoaders } from './consolePages';

/** The loader of the signed-in screen at `pathname`, if it is one. */
export function signedInPageAt(pathname: string): (() => Promise<unknown>) | undefined {
  return signedInPageLoaders.find(([path]) =>
    matchPath({ path, caseSensitive: false, end: true }, pathname),
  )?.[1];
}

/** Starts the frame's and the page's code and the session's restoration; true when it did. */
export function preloadSignedIn(pathname: string): boolean {
  const loadPage = signedInPageAt(pathname);
  if (!loadPage || !readSessionKind()) return false;
  // Failures here are the later render's to report (lazy() and the route guard try again).
  void ensureSession().catch(() => undefined);
  void loadSignedInLayout().catch(() => undefined);
  void loadPage().catch(() => undefined);
  return true;
}
