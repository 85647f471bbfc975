import type { Role } from '@shared/schemas/me';
import { type ReactNode, useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { ensureSession, useSession } from '../auth/sessionStore';
import { Loading } from './Loading';

interface RequireRoleProps {
  /** Who may see the page (spec §2 "Protected routes"). */
  roles: readonly Role[];
  children: ReactNode;
}

/**
 * The one place protected routes are guarded (spec §2): waits for the session
 * to load, then sends anyone with a role not in `roles` to /, and anyone not
 * signed in to / as well (to /login right after "Logout": `exitTo`). It only
 * hides pages: the server authorizes every call on its own.
 */
export function RequireRole({ roles, children }: RequireRoleProps) {
  const status = useSession((s) => s.status);
  const role = useSession((s) => s.me?.role);
  const exitTo = useSession((s) => s.exitTo);

  useEffect(() => {
    void ensureSession();
  }, []);

  if (status === 'loading') return <Loading />;
  if (status !== 'signedIn') return <Navigate to={exitTo} replace />;
  if (!role || !roles.includes(role)) return <Navigate to="/" replace />;
  return children;
}
