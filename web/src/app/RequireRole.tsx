import type { Role } from '@shared/schemas/me';
import { type ReactNode, useContext, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { rememberReturnTo } from '../auth/returnTo';
import { ensureSession, useSession } from '../auth/sessionStore';
import { guardMessages } from '../content/guardMessages';
import { carryNotice } from '../stores/carriedNotice';
import { pendingHeadingAt } from './FrameSkeleton';
import { Loading } from './Loading';
import { PendingPageContext } from './pendingPage';

interface RequireRoleProps {
  /** Who may see the page (spec §2 "Protected routes"). */
  roles: readonly Role[];
  children: ReactNode;
}

/**
 * The one place protected routes are guarded (spec §2): waits for the session
 * to load, then sends anyone not signed in to / (to /login right after
 * "Logout": `exitTo`) and anyone with a role not in `roles` to / as well. It
 * says why (issue 25), unless the person just left on purpose,
 * and remembers the page so that signing in comes back to it. It only hides
 * pages: the server authorizes every call on its own.
 *
 * While it waits it shows the page's heading (when the session hint's role may
 * see the page) or "Loading…": only what is painted meanwhile, never whether
 * the page is let through, rests on the hint.
 */
export function RequireRole({ roles, children }: RequireRoleProps) {
  const pending = useContext(PendingPageContext);
  const status = useSession((s) => s.status);
  const role = useSession((s) => s.me?.role);
  const exitTo = useSession((s) => s.exitTo);
  const because = useSession((s) => s.signedOutBecause);
  const { pathname, search } = useLocation();
  const refused =
    status === 'signedOut'
      ? 'signedOut'
      : status === 'signedIn' && (!role || !roles.includes(role))
        ? 'role'
        : null;

  useEffect(() => {
    void ensureSession();
  }, []);

  // What to say, and the page to come back to; undefined when the person left on purpose.
  const notice =
    refused === 'signedOut' && because !== 'left'
      ? because === 'ended'
        ? guardMessages.ended
        : guardMessages.signIn
      : refused === 'role'
        ? roles.includes('manager')
          ? guardMessages.managersOnly
          : guardMessages.employeesOnly
        : undefined;
  const returnTo = refused === 'signedOut' && notice ? `${pathname}${search}` : undefined;
  useEffect(() => {
    // Once per refusal: the guard's own re-renders on the way out say nothing new.
    if (returnTo) rememberReturnTo(returnTo);
    // Said on the public page it leads to (whose toaster takes it on arrival), and kept
    // until dismissed: the reason is not something to read against a clock.
    if (notice) carryNotice({ kind: 'info', message: notice, durationMs: Number.POSITIVE_INFINITY });
  }, [notice, returnTo]);

  if (status === 'loading') {
    // The page's heading (painted by the frame) when the role signed in with may see it.
    const hinted = pendingHeadingAt(pathname);
    return pending && hinted && roles.includes(hinted.role) ? (
      pending(hinted.heading, hinted.role)
    ) : (
      <Loading />
    );
  }
  if (status !== 'signedIn') return <Navigate to={exitTo} replace />;
  if (!role || !roles.includes(role)) return <Navigate to="/" replace />;
  return children;
}
