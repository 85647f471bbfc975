import { registerManagerInput } from '@shared/schemas/auth';
import { Link, useNavigate } from 'react-router-dom';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSchemaForm } from '../../components/useSchemaForm';
import { useSubmit } from '../../components/useSubmit';
import { EmailField, NameFields, NewPasswordField } from './AccountFields';
import { AuthCard, AuthLinks } from './AuthCard';
import { signUp } from './signUpHelpers';

export function RegisterManagerPage() {
  useDocumentTitle('Create New Team');
  const navigate = useNavigate();
  const form = useSchemaForm(registerManagerInput, {
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    company: '',
  });
  const { firstName, lastName, email, password } = form.values;
  // Spec §5: enabled only when these four are non-blank after trimming.
  const ready = [firstName, lastName, email, password].every((value) => value.trim() !== '');

  const { busy, onSubmit } = useSubmit(form.validate, (input) =>
    signUp('registerManager', input, form.applyServerErrors, navigate),
  );

  return (
    <section className="pub-container auth-page">
      <AuthCard title="Create New Team" lead="Set up your team, then invite your employees.">
        <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Create new team">
          <NameFields first={form.field('firstName')} last={form.field('lastName')} />
          <EmailField {...form.field('email')} />
          <NewPasswordField {...form.field('password')} />
          <TextField
            label="Company Name"
            autoComplete="organization"
            required
            maxLength={120}
            {...form.field('company')}
          />
          <p className="auth-small">
            By creating a team you agree to our{' '}
            <a href="/terms" target="_blank" rel="noopener">
              Terms of Use
            </a>{' '}
            and{' '}
            <a href="/privacy" target="_blank" rel="noopener">
              Privacy Policy
            </a>{' '}
            (each opens in a new tab).
          </p>
          <Button type="submit" disabled={!ready || busy} busy={busy}>
            Create Team
          </Button>
        </form>
        <AuthLinks>
          <li>
            <Link to="/login">Already have an account? Sign in</Link>
          </li>
          <li>
            <Link to="/registerEmployee">Joining a team instead?</Link>
          </li>
        </AuthLinks>
      </AuthCard>
    </section>
  );
}
