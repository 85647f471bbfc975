/**
 * Toast notifications, shown by <Toaster /> (components/Toaster.tsx) in live
 * regions so screen readers announce them. Successes and information go to a
 * polite status region and close by themselves; errors go to an alert region
 * and stay until dismissed (or replaced), so nobody has to read against a clock.
 *
 * A notice about one attempt of a form names that form (`about`): when a later
 * attempt succeeds, `settleNotices(about)` takes the attempt's errors away, so
 * 'Login Failed!' does not outlive the sign-in that worked. A notice identical to
 * one on screen replaces it (announced again) instead of stacking a copy.
 */
import { create } from 'zustand';

export type NotificationKind = 'success' | 'info' | 'error';

export interface Notification {
  id: number;
  kind: NotificationKind;
  title?: string;
  message: string;
  /** Closes by itself after this long (Infinity: never, until dismissed); undefined keeps it until dismissed. */
  durationMs?: number;
  /** The form whose attempt this notice is about ('signIn', 'signUp', ...). */
  about?: string;
}

export type NotificationInput = Omit<Notification, 'id'>;

/** How long a success or info notification stays when the caller names no duration. */
export const DEFAULT_NOTIFICATION_MS = 5000;
/** At most this many notifications on screen; the oldest go first. */
const MAX_VISIBLE = 3;

/** Two notices are the same when a reader could not tell them apart. */
export function sameNotice(a: NotificationInput, b: NotificationInput): boolean {
  return a.kind === b.kind && a.title === b.title && a.message === b.message;
}

interface NotificationState {
  items: Notification[];
  notify: (input: NotificationInput) => number;
  dismiss: (id: number) => void;
  /** Takes away the error notices about `about`'s earlier attempts. */
  settle: (about: string) => void;
  /** Takes every notice away, handing back those that are not errors. */
  drain: () => NotificationInput[];
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function stopTimer(id: number) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

export const useNotifications = create<NotificationState>()((set, get) => ({
  items: [],
  notify: (input) => {
    const id = nextId++;
    const durationMs = input.durationMs ?? (input.kind === 'error' ? undefined : DEFAULT_NOTIFICATION_MS);
    for (const item of get().items) if (sameNotice(item, input)) stopTimer(item.id);
    set((state) => ({
      items: [...state.items.filter((item) => !sameNotice(item, input)), { ...input, id, durationMs }].slice(
        -MAX_VISIBLE,
      ),
    }));
    if (durationMs !== undefined && Number.isFinite(durationMs)) {
      timers.set(
        id,
        setTimeout(() => get().dismiss(id), durationMs),
      );
    }
    return id;
  },
  dismiss: (id) => {
    stopTimer(id);
    set((state) => ({ items: state.items.filter((item) => item.id !== id) }));
  },
  settle: (about) => {
    for (const item of get().items) {
      if (item.kind === 'error' && item.about === about) get().dismiss(item.id);
    }
  },
  drain: () => {
    const items = get().items;
    for (const item of items) stopTimer(item.id);
    set({ items: [] });
    return items.filter((item) => item.kind !== 'error').map(({ id: _id, ...input }) => input);
  },
}));

/**
 * Where notifications go instead of the light toaster. The signed-in area
 * (Mantine) registers @mantine/notifications here while it is mounted, so the
 * console's messages use the library's notifications; the public form pages,
 * which never load Mantine, keep the light live-region toaster.
 */
export interface NotificationHost {
  show: (input: NotificationInput) => void;
  settle: (about: string) => void;
}
let host: NotificationHost | undefined;

/**
 * Registers the signed-in area's host. What waits in the light toaster moves to
 * it, except errors: they were about an attempt on a public page (a failed
 * sign-in before the one that worked) and end where that page ends.
 */
export function setNotificationHost(next: NotificationHost | undefined): void {
  host = next;
  if (next) for (const notice of useNotifications.getState().drain()) next.show(notice);
}

/** For event handlers outside React render: `notify({ kind: 'success', message })`. */
export function notify(input: NotificationInput): number {
  if (host) {
    host.show(input);
    return 0;
  }
  return useNotifications.getState().notify(input);
}

/** A later attempt of the form `about` succeeded: its earlier failures are no longer news. */
export function settleNotices(about: string): void {
  host?.settle(about);
  useNotifications.getState().settle(about);
}
