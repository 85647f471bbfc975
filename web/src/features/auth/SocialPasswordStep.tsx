/**
 * /auth/callback's password step (issue 24, attack 8): Google or Facebook
 * signed the person in, and their address has an account this provider is
 * not joined to yet. The address alone does not prove the account is theirs
 * (it may never have been verified, or the provider does not vouch for it),
 * so the account's password is asked once; then the provider's sign-in is
 * joined, and the next one goes straight in. An account with an authenticator
 * app asks for its code next (MFA_REQUIRED, `onCodeRequired`).
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/Button';
import { socialPasswordMessages } from '../../content/accountMessages';
import { PasswordField } from './AccountFields';
import { AuthCard, AuthLinks } from './AuthCard';

export interface SocialPasswordStepProps {
  /** The server's words for why the password is asked. */
  lead?: string;
  /** Sends the password (never empty); resolves once signed in. */
  submit: (password: string) => Promise<unknown>;
  onSignedIn: () => void;
  onCodeRequired: () => void;
  /** A failure the password field cannot show (no `fields.password`). */
  onFailure: (error: unknown) => void;
  onBack: () => void;
}

export function SocialPasswordStep({
  lead,
  submit,
  onSignedIn,
  onCodeRequired,
  onFailure,
  onBack,
}: SocialPasswordStepProps) {
  const text = socialPasswordMessages;
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // The step replaces the page's spinner: the password field takes the focus.
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => {
    field.current?.focus();
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (password === '') {
      setError('Password is required');
      field.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await submit(password);
      onSignedIn();
    } catch (failure) {
      setBusy(false);
      if (failure instanceof ApiError && failure.code === 'MFA_REQUIRED') return onCodeRequired();
      // A wrong password: say so on the field; the server keeps the sign-in waiting for another try.
      if (failure instanceof ApiError && failure.fields?.password) {
        setError(failure.fields.password);
        field.current?.focus();
      } else onFailure(failure);
    }
  }

  return (
    <AuthCard title={text.title} lead={lead || text.lead}>
      <form className="pub-form" noValidate onSubmit={onSubmit} aria-label={text.title}>
        <PasswordField
          name="password"
          value={password}
          onValueChange={(value) => {
            setPassword(value);
            setError(undefined);
          }}
          error={error}
          inputRef={field}
        />
        <Button type="submit" disabled={busy} busy={busy}>
          {text.submit}
        </Button>
      </form>
      <AuthLinks>
        <li>
          <Link to="/forgotpassword">{text.forgot}</Link>
        </li>
        <li>
          <button type="button" className="auth-link-button" onClick={onBack}>
            {text.back}
          </button>
        </li>
      </AuthLinks>
    </AuthCard>
  );
}
