/**
 * Where focus goes when a dialog closes (WCAG 2.4.3). Mantine's Modal returns
 * focus only when it was mounted closed and then opened; most of our dialogs
 * mount open and unmount on close, some open lazily (the card dialog), and
 * some are opened from a menu item that is gone by the time they close. So
 * every signed-in dialog goes through `useDialogFocusReturn` instead.
 */
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** A container marked with this attribute (and tabIndex -1) takes focus when the control inside it that opened a dialog is gone. */
export const FOCUS_FALLBACK = 'data-focus-fallback';

export interface Opener {
  /** The control that opened the dialog, as the person sees it. */
  control: HTMLElement | null;
  /** The nearest marked container around it, for when the control is gone. */
  fallback: HTMLElement | null;
}

/**
 * The control behind the element focused when a dialog opens. A menu item
 * closes with its menu, so its menu's button counts as the opener (Mantine
 * labels a menu's dropdown by its button).
 */
export function openerOf(active: Element | null, doc: Document = document): Opener {
  // A dialog already open beneath this one (a step-up asked for by a dialog's busy button, which
  // lost the focus when it was disabled): when nothing else can, the focus goes back into it.
  const dialogs = doc.querySelectorAll<HTMLElement>('[role="dialog"]');
  const beneath = dialogs.length > 0 ? (dialogs[dialogs.length - 1] ?? null) : null;
  if (!active || active === doc.body || !(active instanceof HTMLElement))
    return { control: null, fallback: beneath };
  const menu = active.closest('[role="menu"]');
  const button = menu ? doc.getElementById(menu.getAttribute('aria-labelledby') ?? '') : null;
  const control = button ?? active;
  return {
    control,
    fallback:
      control.closest<HTMLElement>(`[${FOCUS_FALLBACK}]`) ?? (beneath?.contains(control) ? beneath : null),
  };
}

/** Focus is nowhere a person put it: on the page itself, or on something no longer on the page. */
export function focusLost(doc: Document = document): boolean {
  const active = doc.activeElement;
  return active === null || active === doc.body || !active.isConnected;
}

/** Focuses the opener if it is still on the page and can take focus, else its fallback; says whether either did. */
export function returnFocus(opener: Opener, doc: Document = document): boolean {
  for (const target of [opener.control, opener.fallback]) {
    if (!target?.isConnected) continue;
    target.focus({ preventScroll: true });
    if (doc.activeElement === target) return true;
  }
  return false;
}

/**
 * Remembers what had focus when `opened` turns true (also on mount, which
 * Mantine misses) and gives it back when the dialog closes or unmounts,
 * unless the person has since put focus somewhere else.
 */
export function useDialogFocusReturn(opened: boolean): void {
  const opener = useRef<Opener | null>(null);
  // Read while rendering the opening: the commit that mounts the dialog may also
  // remove what had focus (a menu closing with its item's click), and Mantine's
  // focus trap moves focus into the dialog a task later.
  if (!opened) opener.current = null;
  else if (opener.current === null) opener.current = openerOf(document.activeElement);
  useLayoutEffect(() => {
    const from = opener.current;
    if (!opened || !from) return;
    return () => {
      const atClose = document.activeElement;
      // After the page has rendered what the action changed (a bulk action's buttons leave with its selection).
      window.setTimeout(() => {
        if (focusLost() || document.activeElement === atClose) returnFocus(from);
      });
    };
  }, [opened]);
}

/**
 * For a control that leaves the page once its action is done (a bulk action's
 * button, gone with the selection): call the returned function with the state
 * change, and `target` takes focus after that render if focus was lost.
 */
export function useFocusAfterRender(target: RefObject<HTMLElement | null>): () => void {
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked > 0 && focusLost()) target.current?.focus({ preventScroll: true });
  }, [asked, target]);
  return useCallback(() => setAsked((n) => n + 1), []);
}
