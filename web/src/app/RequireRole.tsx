import type { ReactNode } from 'react';
import type { Role } from '../../../shared/src/schemas/me';

interface RequireRoleProps {
  /** Who may see the page (spec §2 "Protected routes"). */
  roles: readonly Role[];
  children: ReactNode;
}

/**
 * The one place protected routes are guarded. A STUB for now: it renders the
 * page for everyone, because sign-in arrives with accounts. Then it will wait
 * for the user to load and send anyone not signed in, or with a role not in
 * `roles`, to / (spec §2). It only hides pages: the server authorizes every
 * call on its own.
 */
export function RequireRole(props: RequireRoleProps) {
  return props.children;
}
