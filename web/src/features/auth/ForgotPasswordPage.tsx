/**
 * /forgotpassword (spec §2, §4 "Password recovery", §5, §8).
 * Without ?token: 'Password Recovery' asks for the email ('Valid email is
 * required!'), then always answers 'We sent you an email with the
 * instructions' (the server answers the same whether or not there is an
 * account). With ?token (the e-mailed link): 'Reset your password', new
 * password twice ('Passwords do not match!'), then 'Password update request
 * is sent' and a way to sign in.
 */

import { forgotPasswordInput, passwordRule } from '@shared/schemas/auth';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { ApiError, call, errorMessage } from '../../api/client';
import { Button } from '../../components/Button';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSchemaForm } from '../../components/useSchemaForm';
import { useSubmit } from '../../components/useSubmit';
import { passwordMessages } from '../../content/accountMessages';
import { notify, settleNotices } from '../../stores/notifications';
import { EmailField, NewPasswordField, PasswordField } from './AccountFields';
import { AuthCard, AuthLinks } from './AuthCard';
import { LocalMailboxLink } from './VerifyEmailPage';

function RecoveryForm() {
  useDocumentTitle('Password Recovery');
  const form = useSchemaForm(forgotPasswordInput, { email: '' });
  const [sent, setSent] = useState(false);
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      await call('forgotPassword', input);
      settleNotices('forgotPassword');
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && form.applyServerErrors(error.fields)) return;
      notify({
        kind: 'error',
        title: passwordMessages.failedTitle,
        message: errorMessage(error),
        about: 'forgotPassword',
      });
    }
  });

  if (sent) {
    return (
      <AuthCard title="Password Recovery">
        <div className="auth-notice" role="status">
          <p className="pub-page__lead">{passwordMessages.sent}</p>
          <p className="auth-small">The link in it works once, for one hour.</p>
          <LocalMailboxLink />
        </div>
        <AuthLinks>
          <li>
            <Link to="/login">Back to sign in</Link>
          </li>
        </AuthLinks>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Password Recovery"
      lead="Enter your work email and we will send you a link to reset your password."
    >
      <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Password recovery">
        <EmailField {...form.field('email')} />
        <Button type="submit" disabled={busy} busy={busy}>
          Send Instructions
        </Button>
      </form>
      <AuthLinks>
        <li>
          <Link to="/login">Back to sign in</Link>
        </li>
      </AuthLinks>
    </AuthCard>
  );
}

/** The reset form: the shared password rule, and both entries equal (spec §5 "Reset"). */
const resetForm = z
  .object({ password: passwordRule, confirmPassword: z.string() })
  .refine((values) => values.password === values.confirmPassword, {
    error: passwordMessages.mismatch,
    path: ['confirmPassword'],
  });

function ResetForm({ token }: { token: string }) {
  useDocumentTitle('Reset your password');
  const form = useSchemaForm(resetForm, { password: '', confirmPassword: '' });
  const [done, setDone] = useState(false);
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      await call('resetPassword', {
        token,
        password: input.password,
        confirmPassword: input.confirmPassword,
      });
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && form.applyServerErrors(error.fields)) return;
      if (error instanceof ApiError && (error.status === 404 || error.fields?.token)) {
        setLinkProblem(
          error.status === 404 ? error.message : 'This link is incomplete. Please request a new one.',
        );
        return;
      }
      notify({ kind: 'error', title: passwordMessages.resetFailedTitle, message: errorMessage(error) });
    }
  });

  if (done) {
    return (
      <AuthCard title="Reset your password">
        <div className="auth-notice" role="status">
          <p className="pub-page__lead">{passwordMessages.updated}</p>
          <div className="auth-notice__actions">
            <Link className="pub-btn pub-btn--primary" to="/login">
              Sign In
            </Link>
          </div>
        </div>
      </AuthCard>
    );
  }

  if (linkProblem) {
    return (
      <AuthCard title="Reset your password">
        <div className="auth-notice auth-notice--error" role="alert">
          <p className="pub-page__lead">{linkProblem}</p>
          <div className="auth-notice__actions">
            <Link className="pub-btn pub-btn--primary" to="/forgotpassword">
              Send a new link
            </Link>
          </div>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset your password" lead="Choose a new password for your account.">
      <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Reset your password">
        <NewPasswordField label="New Password" {...form.field('password')} />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          {...form.field('confirmPassword')}
        />
        <Button type="submit" disabled={busy} busy={busy}>
          Reset Password
        </Button>
      </form>
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim();
  return (
    <section className="pub-container auth-page">
      {token ? <ResetForm key={token} token={token} /> : <RecoveryForm />}
    </section>
  );
}
