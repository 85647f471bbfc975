/**
 * /registerEmployee - 'Join an Existing Team' (spec §2, §4 "Invite check";
 * decisions.md "Invitations carry a single-use link").
 *
 * Opened from the invitation e-mail (?email=&token=): the sign-up form, with
 * the invited address filled in and fixed; the token goes with it, and
 * nothing else lets anyone join. A refused link (expired, or replaced by a
 * newer invitation) comes back to step 1 with the address kept.
 *
 * Step 1, 'Enter your email' and Verify: the server e-mails the link if the
 * address is invited, and answers the same words either way ('If you were
 * invited, a link is on its way to that address'), beside 'Enter new Email'
 * and 'Invite your manager to the product' (it e-mails the manager an
 * invitation to create a team). So nobody learns by asking whether an address
 * is invited.
 */

import {
  type INVITATION_LINK_SENT,
  inviteCheckInput,
  inviteManagerInput,
  registerEmployeeInput,
} from '@shared/schemas/auth';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, call, errorMessage } from '../../api/client';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSchemaForm } from '../../components/useSchemaForm';
import { useSubmit } from '../../components/useSubmit';
import { registrationMessages } from '../../content/accountMessages';
import { notify, settleNotices } from '../../stores/notifications';
import { EmailField, NameFields, NewPasswordField } from './AccountFields';
import { AuthCard, AuthLinks } from './AuthCard';
import { finishSignUp, reportSignUpError } from './signUpHelpers';

type Step =
  /** Step 1; `notice`: why the link did not work, when that brought the person here. */
  | { state: 'enterEmail'; email: string; notice?: string }
  | { state: 'linkSent'; email: string; message: typeof INVITATION_LINK_SENT }
  | { state: 'signUp'; email: string; token: string };

function InviteCheckForm({
  initialEmail,
  notice,
  onSent,
}: {
  initialEmail: string;
  notice?: string;
  onSent: (step: Step) => void;
}) {
  const form = useSchemaForm(inviteCheckInput, { email: initialEmail });
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      const { message } = await call('checkInvitation', input);
      onSent({ state: 'linkSent', email: input.email, message });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && form.applyServerErrors(error.fields)) return;
      notify({ kind: 'error', title: registrationMessages.checkFailedTitle, message: errorMessage(error) });
    }
  });

  return (
    <AuthCard
      title="Join an Existing Team"
      lead="Enter the email address your manager invited. If it has an invitation, we will email you a link to join."
    >
      {notice ? (
        <p className="auth-alert" role="alert">
          {notice}
        </p>
      ) : null}
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

/** The same card whether or not the address is invited: only the mailbox knows. */
function LinkSent({ email, message, onRetry }: { email: string; message: string; onRetry: () => void }) {
  const [inviting, setInviting] = useState(false);
  return (
    <AuthCard title={registrationMessages.linkSentTitle}>
      <div className="auth-notice" role="status">
        <p className="pub-page__lead">{message}.</p>
        <p className="auth-small">
          You entered <strong className="auth-address">{email}</strong>. {registrationMessages.linkSentHint}
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

/** The form's own fields; the link's token is added when it is sent. */
const signUpFields = registerEmployeeInput.omit({ token: true });

function SignUpForm({
  email,
  token,
  onChangeEmail,
  onLinkRefused,
}: {
  email: string;
  token: string;
  onChangeEmail: () => void;
  onLinkRefused: (message: string) => void;
}) {
  const navigate = useNavigate();
  const form = useSchemaForm(signUpFields, {
    firstName: '',
    lastName: '',
    email,
    password: '',
    zip: '',
  });
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      await call('registerEmployee', { ...input, token });
    } catch (error) {
      // Expired or replaced: back to step 1, which sends a new link to the same address.
      if (error instanceof ApiError && error.fields?.token) {
        onLinkRefused(error.fields.token);
        return;
      }
      reportSignUpError(error, form.applyServerErrors);
      return;
    }
    settleNotices('signUp');
    await finishSignUp(input.email, input.password, navigate);
  });

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
  const [step, setStep] = useState<Step>(() => {
    const email = params.get('email')?.trim() ?? '';
    const token = params.get('token')?.trim();
    return email && token ? { state: 'signUp', email, token } : { state: 'enterEmail', email };
  });
  // Remount the step-1 form (with its new pre-fill) each time the page comes back to it.
  const [round, setRound] = useState(0);
  const card = useRef<HTMLElement>(null);

  // Each step replaces the card: move focus to it so keyboard and screen-reader users follow.
  useEffect(() => {
    if (round === 0 && step.state !== 'linkSent') return;
    card.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [step, round]);

  function backToStepOne(email: string, notice?: string) {
    setStep({ state: 'enterEmail', email, ...(notice ? { notice } : {}) });
    setRound((n) => n + 1);
  }

  return (
    <section className="pub-container auth-page" ref={card}>
      {step.state === 'enterEmail' ? (
        <InviteCheckForm key={round} initialEmail={step.email} notice={step.notice} onSent={setStep} />
      ) : step.state === 'signUp' ? (
        <SignUpForm
          email={step.email}
          token={step.token}
          onChangeEmail={() => backToStepOne(step.email)}
          onLinkRefused={(notice) => backToStepOne(step.email, notice)}
        />
      ) : (
        <LinkSent email={step.email} message={step.message} onRetry={() => backToStepOne('')} />
      )}
    </section>
  );
}
