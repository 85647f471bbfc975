/**
 * The second step for an account with an authenticator app, after the server
 * answered MFA_REQUIRED: the password sign-in on /login and the social return
 * on /auth/callback both show it. A recovery code works too.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, errorMessage } from '../../api/errors';
import { takeReturnTo } from '../../auth/returnTo';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { secondFactorMessages, signInMessages } from '../../content/accountMessages';
import { notify, settleNotices } from '../../stores/notifications';
import { AuthCard, AuthLinks } from './AuthCard';

export interface SecondFactorStepProps {
  /** Sends the code (trimmed, never empty); resolves once signed in. */
  submit: (code: string) => Promise<unknown>;
  /**
   * A failure the code field cannot show (no `fields.code`). By default
   * 'Login Failed!' with the server's message, staying on the step.
   */
  onFailure?: (error: unknown) => void;
  onBack: () => void;
}

function notifyFailure(error: unknown) {
  notify({ kind: 'error', title: signInMessages.failedTitle, message: errorMessage(error), about: 'signIn' });
}

export function SecondFactorStep({ submit, onFailure = notifyFailure, onBack }: SecondFactorStepProps) {
  const text = secondFactorMessages;
  const navigate = useNavigate();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // The step replaces the form whose button was pressed: the code field takes the focus, not the page's top.
  const codeField = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => {
    codeField.current?.focus();
  }, []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (code.trim() === '') return setError(text.codeRequired);
    setBusy(true);
    try {
      await submit(code.trim());
      settleNotices('signIn');
      navigate(takeReturnTo());
    } catch (failure) {
      setBusy(false);
      // A wrong code: say so on the field; the server keeps the sign-in pending for another try.
      if (failure instanceof ApiError && failure.fields?.code) setError(failure.fields.code);
      else onFailure(failure);
    }
  }

  return (
    <AuthCard title={text.signInTitle} lead={recovery ? text.signInRecoveryLead : text.signInLead}>
      <form className="pub-form" noValidate onSubmit={onSubmit} aria-label={text.signInTitle}>
        <TextField
          label={recovery ? text.signInRecoveryLabel : text.signInCodeLabel}
          name="code"
          value={code}
          onValueChange={(value) => {
            setCode(value);
            setError(undefined);
          }}
          error={error}
          inputRef={codeField}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          maxLength={40}
          required
        />
        <Button type="submit" disabled={busy} busy={busy}>
          {text.verify}
        </Button>
      </form>
      <AuthLinks>
        <li>
          <button
            type="button"
            className="auth-link-button"
            onClick={() => {
              setRecovery(!recovery);
              setError(undefined);
            }}
          >
            {recovery ? text.useApp : text.useRecovery}
          </button>
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
