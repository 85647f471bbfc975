/** /register (spec §2): 'Create New Team' (a manager) or 'Join an Existing Team' (an invited employee). */
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { AuthCard, AuthLinks } from './AuthCard';

export function RegisterPage() {
  useDocumentTitle('Sign Up');
  return (
    <section className="pub-container auth-page auth-page--wide">
      <AuthCard title="Sign Up" lead="How would you like to start?">
        <ul className="auth-choices">
          <li>
            <Link to="/registerManager" className="auth-choice">
              <span className="auth-choice__title">Create New Team</span>
              <span className="auth-choice__text">
                For managers: give your team a monthly learning budget on virtual prepaid cards.
              </span>
            </Link>
          </li>
          <li>
            <Link to="/registerEmployee" className="auth-choice">
              <span className="auth-choice__title">Join an Existing Team</span>
              <span className="auth-choice__text">
                For employees: your manager invited you by email. Sign up with that address.
              </span>
            </Link>
          </li>
        </ul>
        <AuthLinks>
          <li>
            <Link to="/login">Already have an account? Sign in</Link>
          </li>
        </AuthLinks>
      </AuthCard>
    </section>
  );
}
