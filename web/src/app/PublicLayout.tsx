import { type ReactNode, Suspense, useRef } from 'react';
import { Outlet } from 'react-router-dom';
import { Toaster } from '../components/Toaster';
import { useRouteFocus } from '../components/useRouteFocus';
import { Loading } from './Loading';
import { PublicFooter } from './PublicFooter';
import { PublicHeader } from './PublicHeader';

/**
 * Header, main and footer of every public page; plain React and public.css only
 * (no Mantine). The SPA fills <main> from its routes; the build's pre-render
 * (static/render.tsx) passes the page as children.
 *
 * The notices sit at the top of <main>, under the header: they take their place
 * in the page instead of covering the form's fields, and on a phone a page with
 * a form keeps that place while none shows, so the form does not move (public.css). The pre-rendered pages run no React, so they get no toaster.
 * The signed-in area has its own (Mantine) host and no light toaster.
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
        {children ? null : <Toaster />}
        <Suspense fallback={<Loading />}>{children ?? <Outlet />}</Suspense>
      </main>
      <PublicFooter />
    </div>
  );
}
