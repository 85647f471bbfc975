import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../content/site';
import { Logo } from './Logo';

/** Spec §2: the header turns white once the page is scrolled more than 10 px. */
const SCROLLED_PX = 10;

function useScrolledPast(px: number): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > px);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [px]);
  return scrolled;
}

export function PublicHeader() {
  const scrolled = useScrolledPast(SCROLLED_PX);
  // Signed-in visitors will see 'Go to Dashboard' / 'Go Shopping' here once accounts exist (spec §2).
  return (
    <header className={`pub-header${scrolled ? ' pub-header--scrolled' : ''}`}>
      <div className="pub-container pub-header__inner">
        <Link to="/" className="pub-logo">
          <Logo />
          <span>{PRODUCT_NAME}</span>
        </Link>
        <nav aria-label="Account">
          <ul className="pub-header__actions">
            <li>
              <Link to="/login" className="pub-btn pub-btn--ghost">
                Sign In
              </Link>
            </li>
            <li>
              <Link to="/register" className="pub-btn pub-btn--primary">
                Sign Up
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
