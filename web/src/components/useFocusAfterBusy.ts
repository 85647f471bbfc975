/**
 * A form's button shows it is busy by being disabled, and a disabled button
 * loses the keyboard focus to the page (WCAG 2.4.3): after a refusal a
 * keyboard or screen-reader user would be left at the top with no clue. When
 * the work ends and nothing has the focus (a field the answer points to may
 * have taken it), the focus goes to the form's message that answers (its first
 * `role="alert"`), else back to the button.
 */
import { type RefObject, useEffect, useRef } from 'react';

export function useFocusAfterBusy(
  busy: boolean,
  form: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
) {
  const wasBusy = useRef(busy);
  useEffect(() => {
    const ended = wasBusy.current && !busy;
    wasBusy.current = busy;
    if (!ended) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const message = form.current?.querySelector<HTMLElement>('[role="alert"]');
    if (message) {
      message.tabIndex = -1;
      message.focus();
    } else button.current?.focus();
  }, [busy, form, button]);
}
