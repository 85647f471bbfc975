/**
 * /registerEmployee - 'Join an Existing Team' (spec §2, §4 "Invite check").
 * Step 1: the invited address and Verify (pre-filled from ?email=, which the
 * invitation e-mail links to). Then either the sign-up form, with the address
 * fixed to the invited one, or 'Sorry! No one invited you' with 'Enter new
 * Email' and 'Invite your manager to the product' (decisions.md: it e-mails
 * the manager an invitation to create a team).
 */

import { inviteCheckInput, inviteManagerInput, registerEmployeeInput } from '@shared/schemas/auth';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, call, errorMessage } from '../../api/client';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSchemaForm } from '../../components/useSchemaForm';
import { useSubmit } from '../../components/useSubmit';
import { registrationMessages } from '../../content/accountMessages';
import { notify } from '../../stores/notifications';
import { EmailField, NameFields, NewPasswordField } from './AccountFields';
import { AuthCard, AuthLinks } from './AuthCard';
import { signUp } from './signUpHelpers';

type Check =
  | { state: 'unknown' }
  | { state: 'invited'; email: string }
  | { state: 'notInvited'; email: string };

function InviteCheckForm({
  initialEmail,
  onChecked,
}: {
  initialEmail: string;
  onChecked: (check: Check) => void;
}) {
  const form = useSchemaForm(inviteCheckInput, { email: initialEmail });
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      const { invited } = await call('checkInvitation', input);
      onChecked(
        invited ? { state: 'invited', email: input.email } : { state: 'notInvited', email: input.email },
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && form.applyServerErrors(error.fields)) return;
      notify({ kind: 'error', title: registrationMessages.checkFailedTitle, message: errorMessage(error) });
    }
  });

  return (
    <AuthCard
      title="Join an Existing Team"
      lead="Enter the email address your manager invited. We will check for your invitation."
    >
      <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Check your invitation">
        <EmailField label="Enter your email" {...form.field('email')} />
        <Button type="submit" disabled={busy} busy={busy}>
          Verify
        </Button>
      </form>
      <AuthLinks>
        <li>
          <Link to="/login">Already have an account? Sign in</Link>
        </li>
        <li>
          <Link to="/registerManager">Starting a new team?</Link>
        </li>
      </AuthLinks>
    </AuthCard>
  );
}

function InviteManagerForm({ fromEmail }: { fromEmail: string }) {
  const form = useSchemaForm(inviteManagerInput, { managerEmail: '', fromName: '', fromEmail });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      await call('inviteManager', input);
      setSentTo(input.managerEmail);
      notify({
        kind: 'success',
        title: registrationMessages.inviteManagerSentTitle,
        message: registrationMessages.inviteManagerSent(input.managerEmail),
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) form.applyServerErrors(error.fields);
      notify({
        kind: 'error',
        title: registrationMessages.inviteManagerFailedTitle,
        message: errorMessage(error),
      });
    }
  });

  if (sentTo) {
    return (
      <div className="auth-subform">
        <p className="auth-small">{registrationMessages.inviteManagerSent(sentTo)}</p>
      </div>
    );
  }

  return (
    <form
      className="pub-form auth-subform"
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="invite-manager-title"
    >
      <h2 id="invite-manager-title">Invite your manager</h2>
      <EmailField label="Your manager's email" autoComplete="off" {...form.field('managerEmail')} />
      <TextField
        label="Your name"
        hint="Optional: tells your manager who asked"
        autoComplete="name"
        maxLength={100}
        {...form.field('fromName')}
      />
      <Button type="submit" className="auth-inline-btn" disabled={busy} busy={busy}>
        Send Invitation
      </Button>
    </form>
  );
}

function NotInvited({ email, onRetry }: { email: string; onRetry: () => void }) {
  const [inviting, setInviting] = useState(false);
  return (
    <AuthCard title={registrationMessages.noInvitation}>
      <div className="auth-notice">
        <p className="auth-small">
          We found no invitation for <strong>{email}</strong>. Check the address in your invitation email, or
          ask your manager to set up a team.
        </p>
        <div className="auth-notice__actions">
          <Button variant="secondary" onClick={onRetry}>
            Enter new Email
          </Button>
          <Button
            variant={inviting ? 'secondary' : 'primary'}
            aria-expanded={inviting}
            aria-controls="invite-manager"
            onClick={() => setInviting((open) => !open)}
          >
            Invite your manager to the product
          </Button>
        </div>
        <div id="invite-manager">{inviting ? <InviteManagerForm fromEmail={email} /> : null}</div>
      </div>
    </AuthCard>
  );
}

function SignUpForm({ email, onChangeEmail }: { email: string; onChangeEmail: () => void }) {
  const navigate = useNavigate();
  const form = useSchemaForm(registerEmployeeInput, {
    firstName: '',
    lastName: '',
    email,
    password: '',
    zip: '',
  });
  const { busy, onSubmit } = useSubmit(form.validate, (input) =>
    signUp('registerEmployee', input, form.applyServerErrors, navigate),
  );

  return (
    <AuthCard
      title="Join an Existing Team"
      lead="You're invited! Create your account to get your learning card."
    >
      <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Sign up">
        <NameFields first={form.field('firstName')} last={form.field('lastName')} />
        <EmailField
          autoComplete="username"
          hint="The address your manager invited"
          readOnly
          required={false}
          {...form.field('email')}
        />
        <NewPasswordField {...form.field('password')} />
        <TextField
          label="Zip Code"
          autoComplete="postal-code"
          inputMode="numeric"
          required
          maxLength={10}
          {...form.field('zip')}
        />
        <Button type="submit" disabled={busy} busy={busy}>
          Join Team
        </Button>
      </form>
      <AuthLinks>
        <li>
          <button type="button" className="auth-link-button" onClick={onChangeEmail}>
            Use a different email
          </button>
        </li>
      </AuthLinks>
    </AuthCard>
  );
}

export function RegisterEmployeePage() {
  useDocumentTitle('Join an Existing Team');
  const [params] = useSearchParams();
  const [check, setCheck] = useState<Check>({ state: 'unknown' });
  const [prefill, setPrefill] = useState(() => params.get('email')?.trim() ?? '');
  // Remount the step-1 form (with the new pre-fill) each time the check is cleared.
  const [round, setRound] = useState(0);
  const card = useRef<HTMLElement>(null);

  // Each step replaces the card: move focus to it so keyboard and screen-reader users follow.
  useEffect(() => {
    if (round === 0 && check.state === 'unknown') return;
    card.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [check, round]);

  function clearCheck(keepEmail: boolean) {
    setPrefill(keepEmail && check.state !== 'unknown' ? check.email : '');
    setCheck({ state: 'unknown' });
    setRound((n) => n + 1);
  }

  return (
    <section className="pub-container auth-page" ref={card}>
      {check.state === 'unknown' ? (
        <InviteCheckForm key={round} initialEmail={prefill} onChecked={setCheck} />
      ) : check.state === 'invited' ? (
        <SignUpForm email={check.email} onChangeEmail={() => clearCheck(true)} />
      ) : (
        <NotInvited email={check.email} onRetry={() => clearCheck(false)} />
      )}
    </section>
  );
}
