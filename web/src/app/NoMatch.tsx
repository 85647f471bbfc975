import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../components/useDocumentTitle';

/** Any path no route claims (spec §2: 'No Match'). */
export function NoMatch() {
  useDocumentTitle('No Match');
  return (
    <section className="pub-container pub-page">
      <h1 className="pub-page__title">No Match</h1>
      <p className="pub-page__lead">There is no page at this address.</p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
