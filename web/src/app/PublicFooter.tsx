import { Link } from 'react-router-dom';
import { SocialLinks } from '../components/SocialLinks';
import { footerLinks, PRODUCT_NAME, PRODUCT_TAGLINE } from '../content/site';

export function PublicFooter() {
  return (
    <footer className="pub-footer">
      <div className="pub-container pub-footer__inner">
        <div className="pub-footer__brand">
          <p className="pub-footer__name">{PRODUCT_NAME}</p>
          <p>{PRODUCT_TAGLINE}</p>
        </div>
        <nav aria-label="Footer">
          <ul className="pub-footer__links">
            {footerLinks.map((link) => (
              <li key={link.href}>
                <Link to={link.href}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <SocialLinks />
      </div>
      <div className="pub-container">
        <p className="pub-footer__legal">
          © {new Date().getFullYear()} {PRODUCT_NAME}
        </p>
      </div>
    </footer>
  );
}
