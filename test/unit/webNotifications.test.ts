/**
 * The notices store (web/src/stores/notifications.ts) without a browser: an
 * identical notice replaces its twin, a form's later success takes its earlier
 * errors away, and the signed-in area's host takes over what waits except errors.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type NotificationInput,
  notify,
  setNotificationHost,
  settleNotices,
  useNotifications,
} from '../../web/src/stores/notifications';

const loginFailed: NotificationInput = {
  kind: 'error',
  title: 'Login Failed!',
  message: 'Incorrect email or password.',
  about: 'signIn',
};

const shown = () => useNotifications.getState().items.map(({ title, message }) => title ?? message);

beforeEach(() => {
  vi.useFakeTimers();
  useNotifications.getState().drain();
});
afterEach(() => {
  setNotificationHost(undefined);
  vi.useRealTimers();
});

describe('notices', () => {
  it('shows a repeated failure once, as the newest notice', () => {
    const first = notify(loginFailed);
    notify({ kind: 'info', message: 'Something else' });
    const second = notify(loginFailed);
    expect(shown()).toEqual(['Something else', 'Login Failed!']);
    expect(second).not.toBe(first);
  });

  it('keeps failures that say different things', () => {
    notify(loginFailed);
    notify({ ...loginFailed, message: 'Too many attempts. Try again in 15 minutes.' });
    expect(useNotifications.getState().items).toHaveLength(2);
  });

  it("takes a form's errors away when a later attempt of it succeeds, and nothing else", () => {
    notify(loginFailed);
    notify({ kind: 'error', title: 'Registration Failed!', message: 'Taken.', about: 'signUp' });
    notify({ kind: 'success', title: 'Confirm Email', message: 'Please check your email and verify.' });
    settleNotices('signUp');
    expect(shown()).toEqual(['Login Failed!', 'Confirm Email']);
  });

  it('a replaced success no longer closes its twin early', () => {
    notify({ kind: 'success', message: 'Copied' });
    vi.advanceTimersByTime(4000);
    notify({ kind: 'success', message: 'Copied' });
    vi.advanceTimersByTime(2000);
    expect(shown()).toEqual(['Copied']);
    vi.advanceTimersByTime(3000);
    expect(shown()).toEqual([]);
  });

  it('hands what waits to the signed-in host, except errors about a public attempt', () => {
    notify(loginFailed);
    notify({ kind: 'success', title: 'Confirm Email', message: 'Please check your email and verify.' });
    const show = vi.fn();
    const settle = vi.fn();
    setNotificationHost({ show, settle });
    expect(show).toHaveBeenCalledTimes(1);
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ title: 'Confirm Email' }));
    expect(shown()).toEqual([]);

    notify(loginFailed);
    settleNotices('signIn');
    expect(show).toHaveBeenCalledTimes(2);
    expect(settle).toHaveBeenCalledWith('signIn');
    expect(shown()).toEqual([]);
  });
});
