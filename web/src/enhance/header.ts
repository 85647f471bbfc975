/**
 * The public header's behaviour, in plain DOM code so the same function runs on
 * the pre-rendered pages (static/enhance.ts, no React) and in the SPA
 * (PublicHeader calls it from an effect). It only toggles classes and
 * attributes React never sets after the first render, so the two do not fight.
 *
 * - spec §2: the header turns white once the page is scrolled more than 10 px;
 * - signed in (auth/sessionHint.ts): 'Go to Dashboard' (manager) or 'Go
 *   Shopping' (employee) instead of Sign In / Sign Up, also when another tab
 *   signs in or out;
 * - on narrow screens the page links fold into a disclosure menu (a button
 *   with aria-expanded; Escape, a click outside or focus leaving close it).
 *   public.css shows the button only where scripts run, from the first paint;
 *   without them the links simply show in a row under the logo.
 */
import { readSessionHint, SESSION_HINT_KEY } from '../auth/sessionHint';

export const HEADER_SCROLLED_PX = 10;

/** Wide screens show the links inline; keep in step with the media query in marketing.css. */
export const HEADER_INLINE_NAV_QUERY = '(min-width: 900px)';

export function isScrolled(scrollY: number): boolean {
  return scrollY > HEADER_SCROLLED_PX;
}

export const headerClasses = {
  enhanced: 'pub-header--enhanced',
  scrolled: 'pub-header--scrolled',
  menuOpen: 'pub-header--menu-open',
} as const;

/** Attaches the behaviour to a rendered PublicHeader; returns a function that detaches it. */
export function enhanceHeader(header: HTMLElement): () => void {
  const view = header.ownerDocument.defaultView ?? window;
  const doc = header.ownerDocument;
  const cleanups: Array<() => void> = [];
  const listen = <K extends keyof WindowEventMap>(
    target: Window,
    type: K,
    handler: (event: WindowEventMap[K]) => void,
    options?: AddEventListenerOptions,
  ) => {
    target.addEventListener(type, handler, options);
    cleanups.push(() => target.removeEventListener(type, handler, options));
  };

  header.classList.add(headerClasses.enhanced);
  cleanups.push(() => header.classList.remove(headerClasses.enhanced));

  // Scrolled: white background and a shadow.
  const onScroll = () => header.classList.toggle(headerClasses.scrolled, isScrolled(view.scrollY));
  onScroll();
  listen(view, 'scroll', onScroll, { passive: true });

  // Signed-in swap: exactly one group of [data-session] items is visible.
  const applySession = () => {
    const state = readSessionHint()?.role ?? 'out';
    for (const item of header.querySelectorAll<HTMLElement>('[data-session]')) {
      item.hidden = item.dataset.session !== state;
    }
  };
  applySession();
  listen(view, 'storage', (event) => {
    if (event.key === null || event.key === SESSION_HINT_KEY) applySession();
  });

  // The narrow-screen menu.
  const toggle = header.querySelector<HTMLButtonElement>('[data-menu-toggle]');
  const panelId = toggle?.getAttribute('aria-controls');
  const panel = panelId ? doc.getElementById(panelId) : null;
  if (toggle && panel) {
    const isOpen = () => toggle.getAttribute('aria-expanded') === 'true';
    const setOpen = (open: boolean) => {
      toggle.setAttribute('aria-expanded', String(open));
      header.classList.toggle(headerClasses.menuOpen, open);
    };
    setOpen(false);

    const onToggle = () => setOpen(!isOpen());
    toggle.addEventListener('click', onToggle);
    cleanups.push(() => toggle.removeEventListener('click', onToggle));

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !isOpen()) return;
      setOpen(false);
      toggle.focus();
    };
    doc.addEventListener('keydown', onKeyDown);
    cleanups.push(() => doc.removeEventListener('keydown', onKeyDown));

    const onDocumentClick = (event: MouseEvent) => {
      if (!isOpen()) return;
      const target = event.target as Node | null;
      // A followed link closes the menu too (the SPA navigates without a page load).
      const link = target instanceof Element ? target.closest('a') : null;
      if (target && header.contains(target) && !(link && panel.contains(link))) return;
      setOpen(false);
    };
    doc.addEventListener('click', onDocumentClick);
    cleanups.push(() => doc.removeEventListener('click', onDocumentClick));

    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget as Node | null;
      if (isOpen() && next && !header.contains(next)) setOpen(false);
    };
    header.addEventListener('focusout', onFocusOut);
    cleanups.push(() => header.removeEventListener('focusout', onFocusOut));

    const wide = view.matchMedia(HEADER_INLINE_NAV_QUERY);
    const onWide = () => {
      if (wide.matches) setOpen(false);
    };
    wide.addEventListener('change', onWide);
    cleanups.push(() => wide.removeEventListener('change', onWide));

    cleanups.push(() => setOpen(false));
  }

  return () => {
    for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  };
}
