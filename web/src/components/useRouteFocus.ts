import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * After a client-side navigation, scroll to the top and move focus to <main>,
 * as a full page load would; otherwise keyboard and screen-reader users stay
 * on the link they followed with no sign that the page changed.
 * The first render is left alone so the browser's own start-up focus stays.
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [pathname, main]);
}
