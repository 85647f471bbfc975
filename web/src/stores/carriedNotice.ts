/**
 * A notification that must outlive a page load: a social sign-out passes
 * through the hosted UI's /logout and comes back as a new page, which would
 * drop 'Logout Success!'. The notice waits in sessionStorage (this tab only)
 * and the next page shows it once (components/Toaster.tsx).
 */
import type { NotificationInput } from './notifications';

const KEY = 'lb.notice';

export function carryNotice(notice: NotificationInput): void {
  try {
    sessionStorage.setItem(
      KEY,
      JSON.stringify({
        kind: notice.kind,
        title: notice.title,
        message: notice.message,
        // A notice that stays until dismissed stays on the next page too.
        stays: notice.durationMs === Number.POSITIVE_INFINITY,
      }),
    );
  } catch {
    // No storage: the notice is lost, the sign-out is not.
  }
}

/** The carried notice, once; null when there is none (or it is not one of ours). */
export function takeCarriedNotice(): NotificationInput | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as (Partial<NotificationInput> & { stays?: boolean }) | null;
    if (!value || typeof value.message !== 'string') return null;
    if (value.kind !== 'success' && value.kind !== 'info' && value.kind !== 'error') return null;
    return {
      kind: value.kind,
      message: value.message,
      ...(typeof value.title === 'string' ? { title: value.title } : {}),
      ...(value.stays === true ? { durationMs: Number.POSITIVE_INFINITY } : {}),
    };
  } catch {
    return null;
  }
}
