/**
 * Notices sit at the bottom of the screen (full width on a phone) and errors
 * stay until closed. Without help, the error answering a tap on a form's last
 * button lands on that very button, and a page scrolled to its end cannot move
 * the button out from under it: the person has to close the notice to try again.
 *
 * So, while notices show, the page keeps as much room below its last control as
 * the notices take (`--notice-clearance`, the height of an empty block at the end of the main area), and
 * the control a notice answers is scrolled just above the notices when they
 * would cover it. That control is the one with the focus (a field the answer
 * pointed to), else the button that sent the form (it lost the focus while it
 * was disabled for the request).
 */

/** The CSS variable giving the height of the room at the end of the signed-in main area. */
export const NOTICE_CLEARANCE_VAR = '--notice-clearance';
/** Space kept between a control and the notices above it, in px. */
const GAP = 12;

let lastSubmitter: HTMLElement | undefined;
let keepClear: HTMLElement | undefined;
let observed: Element | undefined;
let observer: ResizeObserver | undefined;

function onSubmit(event: Event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const submitter = (event as SubmitEvent).submitter;
  lastSubmitter =
    submitter instanceof HTMLElement
      ? submitter
      : (form.querySelector<HTMLElement>('[type="submit"]') ?? undefined);
}

/** What a person taps or types in; the main area, focused after a navigation, is not one to keep clear. */
const CONTROL = 'button, input, select, textarea, a[href], [role="button"]';

/** The control the notice about to show answers. */
function answeredControl(): HTMLElement | undefined {
  const focused = document.activeElement;
  const hasFocus = focused instanceof HTMLElement && focused.matches(CONTROL);
  if (hasFocus) return focused;
  // Nothing has the focus: the button that sent the form lost it while it was disabled for the request.
  return lastSubmitter?.isConnected ? lastSubmitter : undefined;
}

function update(root: Element) {
  const notices = root.getBoundingClientRect();
  const showing = notices.height > 0;
  const clearance = showing ? Math.max(0, window.innerHeight - notices.top) + GAP : 0;
  document.documentElement.style.setProperty(NOTICE_CLEARANCE_VAR, `${Math.ceil(clearance)}px`);
  // Kept until the next notice: the notices may grow in steps as one slides in.
  const control = keepClear;
  if (!showing || !control?.isConnected) return;
  const box = control.getBoundingClientRect();
  const sideBySide = box.right <= notices.left || box.left >= notices.right;
  const covered = !sideBySide && box.bottom > notices.top - GAP && box.top < notices.bottom;
  if (covered) window.scrollBy({ top: box.bottom - (notices.top - GAP) });
}

/** Call just before a notice is shown; `root` finds the notices' container once it is on the page. */
export function keepControlClear(root: () => Element | null): void {
  keepClear = answeredControl();
  lastSubmitter = undefined;
  // The container is in a portal mounted after the host: look for it once a notice is on its way.
  requestAnimationFrame(() => {
    const found = root();
    if (!found || !observer) return;
    if (found !== observed) {
      if (observed) observer.unobserve(observed);
      observer.observe(found);
      observed = found;
    }
    update(found);
  });
}

/** Starts watching submits and the notices' size; the returned function stops it. */
export function watchNoticeClearance(): () => void {
  document.addEventListener('submit', onSubmit, true);
  observer = new ResizeObserver((entries) => {
    for (const entry of entries) update(entry.target);
  });
  return () => {
    document.removeEventListener('submit', onSubmit, true);
    observer?.disconnect();
    observer = undefined;
    observed = undefined;
    keepClear = undefined;
    lastSubmitter = undefined;
    document.documentElement.style.removeProperty(NOTICE_CLEARANCE_VAR);
  };
}
