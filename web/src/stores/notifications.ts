/**
 * Toast notifications, shown by <Toaster /> (components/Toaster.tsx) in live
 * regions so screen readers announce them. Successes and information go to a
 * polite status region and close by themselves; errors go to an alert region
 * and stay until dismissed (or replaced), so nobody has to read against a clock.
 */
import { create } from 'zustand';

export type NotificationKind = 'success' | 'info' | 'error';

export interface Notification {
  id: number;
  kind: NotificationKind;
  title?: string;
  message: string;
  /** Closes by itself after this long; undefined keeps it until dismissed. */
  durationMs?: number;
}

export type NotificationInput = Omit<Notification, 'id'>;

/** How long a success or info notification stays when the caller names no duration. */
export const DEFAULT_NOTIFICATION_MS = 5000;
/** At most this many notifications on screen; the oldest go first. */
const MAX_VISIBLE = 3;

interface NotificationState {
  items: Notification[];
  notify: (input: NotificationInput) => number;
  dismiss: (id: number) => void;
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export const useNotifications = create<NotificationState>()((set, get) => ({
  items: [],
  notify: (input) => {
    const id = nextId++;
    const durationMs = input.durationMs ?? (input.kind === 'error' ? undefined : DEFAULT_NOTIFICATION_MS);
    set((state) => ({ items: [...state.items, { ...input, id, durationMs }].slice(-MAX_VISIBLE) }));
    if (durationMs !== undefined) {
      timers.set(
        id,
        setTimeout(() => get().dismiss(id), durationMs),
      );
    }
    return id;
  },
  dismiss: (id) => {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(id);
    set((state) => ({ items: state.items.filter((item) => item.id !== id) }));
  },
}));

/**
 * Where notifications go instead of the light toaster. The signed-in area
 * (Mantine) registers @mantine/notifications here while it is mounted, so the
 * console's messages use the library's notifications; the public form pages,
 * which never load Mantine, keep the light live-region toaster.
 */
export type NotificationHost = (input: NotificationInput) => void;
let host: NotificationHost | undefined;

export function setNotificationHost(next: NotificationHost | undefined): void {
  host = next;
}

/** For event handlers outside React render: `notify({ kind: 'success', message })`. */
export function notify(input: NotificationInput): number {
  if (host) {
    host(input);
    return 0;
  }
  return useNotifications.getState().notify(input);
}
