import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { PRODUCT_NAME, PRODUCT_TAGLINE } from '../../content/site';

/** Placeholder for the marketing home page (hero, how it works, quotes, call to action) built later. */
export function LandingPage() {
  useDocumentTitle(undefined);
  return (
    <section className="pub-container pub-hero">
      <h1 className="pub-hero__title">{PRODUCT_NAME}</h1>
      <p className="pub-hero__lead">{PRODUCT_TAGLINE}</p>
      <p className="pub-hero__actions">
        <Link to="/subscribe" className="pub-btn pub-btn--primary pub-btn--large">
          Join the Waitlist
        </Link>
        <Link to="/howitworks" className="pub-btn pub-btn--secondary pub-btn--large">
          How It Works
        </Link>
      </p>
    </section>
  );
}
