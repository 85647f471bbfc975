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
  setNotificationHost,
} from '../../stores/notifications';

const COLORS = { success: 'green', info: 'blue', error: 'red' } as const;

function show(input: NotificationInput) {
  notifications.show({
    title: input.title,
    message: input.message,
    color: COLORS[input.kind],
    autoClose: input.durationMs ?? (input.kind === 'error' ? false : DEFAULT_NOTIFICATION_MS),
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
    setNotificationHost(show);
    return () => setNotificationHost(undefined);
  }, []);
  // Bottom right: at the top they covered the header's menu and search (and, below the
  // header, the page's heading and first buttons on a phone); an error stays until dismissed.
  return <Notifications position="bottom-right" limit={3} zIndex={1000} />;
}
