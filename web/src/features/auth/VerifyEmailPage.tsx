/**
 * /verifyEmail (spec §2): 'Verify Email Address' with 'Resend verification
 * email' (signed in only; the server allows 3 per 10 minutes). Locally, a
 * link to the stand-in mailbox, where the e-mail can be read.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { ensureSession, useSession } from '../../auth/sessionStore';
import { Button } from '../../components/Button';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { type AppConfig, currentConfig, loadConfig } from '../../config';
import { verificationMessages } from '../../content/accountMessages';
import { notify } from '../../stores/notifications';
import { AuthCard, AuthLinks } from './AuthCard';

function localMailbox(config: AppConfig | undefined): string | undefined {
  return config?.stage === 'local' && config.mailboxUrl ? config.mailboxUrl : undefined;
}

/** The local mailbox's address, on the local stack only (for the demo). */
export function useLocalMailboxUrl(): string | undefined {
  const [url, setUrl] = useState(() => localMailbox(currentConfig()));
  useEffect(() => {
    let live = true;
    loadConfig().then(
      (config) => live && setUrl(localMailbox(config)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return url;
}

export function LocalMailboxLink() {
  const url = useLocalMailboxUrl();
  if (!url) return null;
  return (
    <p className="auth-mailbox">
      Running locally: e-mails are not sent but kept in a local mailbox.{' '}
      <a href={url} target="_blank" rel="noopener noreferrer">
        Open the local mailbox
      </a>{' '}
      (new tab).
    </p>
  );
}

/** 'Resend verification email' for the signed-in person; says how it went. */
export function useResendVerification() {
  const [busy, setBusy] = useState(false);
  async function resend(email: string | undefined) {
    if (busy) return;
    setBusy(true);
    try {
      await call('resendVerification', {});
      notify({
        kind: 'success',
        title: verificationMessages.resentTitle,
        message: verificationMessages.resent(email ?? 'your email address'),
      });
    } catch (error) {
      notify({ kind: 'error', title: verificationMessages.resendFailedTitle, message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }
  return { busy, resend };
}

export function VerifyEmailPage() {
  useDocumentTitle('Verify Email Address');
  const status = useSession((s) => s.status);
  const me = useSession((s) => s.me);
  const { busy, resend } = useResendVerification();

  useEffect(() => {
    void ensureSession();
  }, []);

  const verified = me?.emailVerified === true;

  return (
    <section className="pub-container auth-page">
      <AuthCard
        title="Verify Email Address"
        lead={
          verified
            ? 'Your email address is verified. You are all set.'
            : me
              ? `We sent a verification link to ${me.email}. Open it to confirm your address.`
              : 'We sent you an email with a verification link. Open it to confirm your address.'
        }
      >
        <div className="auth-notice">
          {verified ? (
            <div className="auth-notice__actions">
              <Link
                className="pub-btn pub-btn--primary"
                to={me.role === 'manager' ? '/setupAccount' : '/shop'}
              >
                Continue
              </Link>
            </div>
          ) : status === 'signedIn' ? (
            <>
              <p className="auth-small">No email? Check your spam folder, or send a new link.</p>
              <div className="auth-notice__actions">
                <Button
                  variant="secondary"
                  busy={busy}
                  disabled={busy}
                  onClick={() => void resend(me?.email)}
                >
                  Resend verification email
                </Button>
              </div>
            </>
          ) : status === 'signedOut' ? (
            <p className="auth-small">
              To send a new link, <Link to="/login">sign in</Link> and use 'Resend verification email' on your
              dashboard.
            </p>
          ) : null}
          <LocalMailboxLink />
        </div>
        {status === 'signedIn' ? (
          <AuthLinks>
            <li>
              <Link to="/dashboard">Go to your dashboard</Link>
            </li>
          </AuthLinks>
        ) : null}
      </AuthCard>
    </section>
  );
}
