/**
 * The public header (spec §2): logo, page links, and Sign In / Sign Up, or 'Go
 * to Dashboard' / 'Go Shopping' when signed in. The markup is the same on the
 * pre-rendered pages and in the SPA; its behaviour (white once scrolled, the
 * signed-in swap, the narrow-screen menu) is enhance/header.ts in both.
 */
import { useEffect, useRef } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { signedInActions } from '../auth/sessionHint';
import { headerLinks, PRODUCT_NAME } from '../content/site';
import { enhanceHeader } from '../enhance/header';
import { Logo } from './Logo';

const MENU_ID = 'pub-nav-panel';

function MenuIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function PublicHeader() {
  const header = useRef<HTMLElement>(null);
  useEffect(() => (header.current ? enhanceHeader(header.current) : undefined), []);
  return (
    <header ref={header} className="pub-header">
      <div className="pub-container pub-header__inner">
        <Link to="/" className="pub-logo">
          <Logo />
          <span>{PRODUCT_NAME}</span>
        </Link>
        <div className="pub-nav">
          {/* Narrow screens with scripting only (public.css); enhance/header.ts makes it work. */}
          <button
            type="button"
            className="pub-nav__toggle"
            data-menu-toggle=""
            aria-expanded="false"
            aria-controls={MENU_ID}
          >
            <MenuIcon />
            <span>Menu</span>
          </button>
          <nav id={MENU_ID} className="pub-nav__panel" aria-label="Main">
            <ul className="pub-nav__list">
              {headerLinks.map((link) => (
                <li key={link.href}>
                  <NavLink to={link.href} className="pub-nav__link">
                    {link.label}
                  </NavLink>
                </li>
              ))}
              {/* Narrow screens keep only the main account button beside the menu. */}
              <li className="pub-nav__account" data-session="out">
                <Link to="/login" className="pub-nav__link">
                  Sign In
                </Link>
              </li>
            </ul>
          </nav>
        </div>
        <nav aria-label="Account" className="pub-header__account">
          <ul className="pub-header__actions">
            <li className="pub-header__signin" data-session="out">
              <Link to="/login" className="pub-btn pub-btn--ghost">
                Sign In
              </Link>
            </li>
            <li data-session="out">
              <Link to="/register" className="pub-btn pub-btn--primary">
                Sign Up
              </Link>
            </li>
            <li data-session="manager" hidden>
              <Link to={signedInActions.manager.href} className="pub-btn pub-btn--primary">
                {signedInActions.manager.label}
              </Link>
            </li>
            <li data-session="employee" hidden>
              <Link to={signedInActions.employee.href} className="pub-btn pub-btn--primary">
                {signedInActions.employee.label}
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
