import { type ReactNode, Suspense, useRef } from 'react';
import { Outlet } from 'react-router-dom';
import { useRouteFocus } from '../components/useRouteFocus';
import { Loading } from './Loading';
import { PublicFooter } from './PublicFooter';
import { PublicHeader } from './PublicHeader';

/**
 * Header, main and footer of every public page; plain React and public.css only
 * (no Mantine). The SPA fills <main> from its routes; the build's pre-render
 * (static/render.tsx) passes the page as children.
 */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const main = useRef<HTMLElement>(null);
  useRouteFocus(main);
  return (
    <div className="pub">
      <a className="pub-skip-link" href="#main">
        Skip to main content
      </a>
      <PublicHeader />
      <main id="main" ref={main} tabIndex={-1} className="pub-main">
        <Suspense fallback={<Loading />}>{children ?? <Outlet />}</Suspense>
      </main>
      <PublicFooter />
    </div>
  );
}
