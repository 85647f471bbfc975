/**
 * The signed-in area's notifications: @mantine/notifications (stacked, labelled,
 * keyboard-dismissable), fed by the same `notify()` every screen calls.
 * Successes close by themselves; errors stay until dismissed, so nobody has to
 * read against a clock (the same rule as the public toaster).
 */
import '@mantine/notifications/styles.css';
import { Notifications, notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import {
  DEFAULT_NOTIFICATION_MS,
  type NotificationInput,
  sameNotice,
  setNotificationHost,
} from '../../stores/notifications';
import { keepControlClear, watchNoticeClearance } from './noticeClearance';

const POSITION = 'bottom-right';
/** At most this many on screen (Mantine's `limit`). */
const LIMIT = 3;

const COLORS = { success: 'green', info: 'blue', error: 'red' } as const;

/** What is on screen, by Mantine id: an identical notice replaces its twin, a settled form's errors go. */
const shown = new Map<string, NotificationInput>();
let nextId = 1;

function hide(id: string) {
  shown.delete(id);
  notifications.hide(id);
}

function settle(about: string) {
  for (const [id, input] of shown) if (input.kind === 'error' && input.about === about) hide(id);
}

function show(input: NotificationInput) {
  for (const [id, other] of shown) if (sameNotice(other, input)) hide(id);
  // Mantine queues what is over its limit until one closes, and errors close only when dismissed:
  // three errors left open would hold every later notice back. The oldest goes, as in the public toaster.
  for (const id of [...shown.keys()].slice(0, Math.max(0, shown.size - (LIMIT - 1)))) hide(id);
  const id = `notice-${nextId++}`;
  shown.set(id, input);
  keepControlClear(() => document.querySelector(`.mantine-Notifications-root[data-position="${POSITION}"]`));
  notifications.show({
    id,
    onClose: () => shown.delete(id),
    title: input.title,
    message: input.message,
    color: COLORS[input.kind],
    autoClose:
      input.durationMs === Number.POSITIVE_INFINITY
        ? false
        : (input.durationMs ?? (input.kind === 'error' ? false : DEFAULT_NOTIFICATION_MS)),
    withBorder: true,
    // With a title, Mantine greys the message to gray.6 (3.3:1 on white); gray.8 reads at AA.
    styles: { description: { color: 'var(--mantine-color-gray-8)' } },
    // Mantine's close button is an icon with no name: axe's button-name (critical).
    closeButtonProps: { 'aria-label': 'Close notification' },
    // Errors interrupt a screen reader; the rest wait their turn.
    role: input.kind === 'error' ? 'alert' : 'status',
    'aria-live': input.kind === 'error' ? 'assertive' : 'polite',
  } as Parameters<typeof notifications.show>[0]);
}

export function NotificationsHost() {
  useEffect(() => {
    setNotificationHost({ show, settle });
    const stopClearance = watchNoticeClearance();
    return () => {
      stopClearance();
      setNotificationHost(undefined);
      // Mantine's store outlives this host: an error left on screen at sign-out must not greet the next sign-in.
      for (const [id, input] of shown) if (input.kind === 'error') hide(id);
      shown.clear();
    };
  }, []);
  // Bottom right: at the top they covered the header's menu and search (and, below the
  // header, the page's heading and first buttons on a phone); an error stays until dismissed,
  // so the page keeps room below the notices and the control they answer is kept clear of them.
  return <Notifications position={POSITION} limit={LIMIT} zIndex={1000} />;
}
