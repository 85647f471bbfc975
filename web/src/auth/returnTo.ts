/**
 * The page a signed-out visitor was turned away from (issue 25): the route
 * guard remembers it, and signing in goes back there instead of to the
 * dashboard. Kept for this tab only (sessionStorage), so it survives the
 * social provider's round trip but not the browser's next session.
 */
const KEY = 'lb.returnTo';
const HOME = '/dashboard';

/** Only our own pages, never another origin (`//evil.example`) or the sign-in pages themselves. */
function isOwnPage(path: string): boolean {
  return /^\/[A-Za-z]/.test(path) && !path.startsWith('/login') && !path.startsWith('/auth');
}

export function rememberReturnTo(path: string): void {
  if (!isOwnPage(path)) return;
  try {
    window.sessionStorage.setItem(KEY, path);
  } catch {
    // Storage blocked: signing in goes to the dashboard, as before.
  }
}

/** Where to go after signing in: the remembered page (once), else the dashboard. */
export function takeReturnTo(): string {
  try {
    const path = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    return path && isOwnPage(path) ? path : HOME;
  } catch {
    return HOME;
  }
}
