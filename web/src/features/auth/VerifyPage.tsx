/**
 * /verify?token=... - the verification e-mail's link (spec §2, §4). Redeems
 * the single-use token, then managers go to /setupAccount and everyone else to
 * /shop. Someone not signed in here (another browser) is sent to sign in.
 * A bad or expired link shows the server's message and a way to a new one; the
 * same link opened again says the address is already verified, and a way on.
 */

import type { Role } from '@shared/schemas/me';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { Loading } from '../../app/Loading';
import { ensureSession, useSession } from '../../auth/sessionStore';
import { Button } from '../../components/Button';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { verificationMessages } from '../../content/accountMessages';
import { notify } from '../../stores/notifications';
import { AuthCard } from './AuthCard';
import { LocalMailboxLink, useResendVerification } from './VerifyEmailPage';

/**
 * One request per token, even if the page mounts twice (React's StrictMode in
 * development, or a quick back-and-forward): the token works only once.
 */
const redemptions = new Map<string, Promise<{ role: Role; alreadyVerified: boolean }>>();
function redeem(token: string) {
  let pending = redemptions.get(token);
  if (!pending) {
    pending = call('verifyEmail', { token });
    redemptions.set(token, pending);
  }
  return pending;
}

export function VerifyPage() {
  useDocumentTitle('Verifying your account');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(token ? null : 'This link is incomplete.');
  const [alreadyVerified, setAlreadyVerified] = useState(false);
  const status = useSession((s) => s.status);
  const me = useSession((s) => s.me);
  const { busy, resend } = useResendVerification();

  useEffect(() => {
    if (!token) return;
    let live = true;
    redeem(token)
      .then(async ({ role, alreadyVerified }) => {
        await ensureSession();
        if (!live) return;
        if (alreadyVerified) {
          setAlreadyVerified(true);
          return;
        }
        const session = useSession.getState();
        if (session.status === 'signedIn') {
          await session.reloadMe().catch(() => null);
          if (!live) return;
          navigate(role === 'manager' ? '/setupAccount' : '/shop', { replace: true });
        } else {
          notify({
            kind: 'success',
            title: verificationMessages.verifiedTitle,
            message: verificationMessages.verifiedSignIn,
          });
          navigate('/login', { replace: true });
        }
      })
      .catch((error: unknown) => {
        if (live) setFailure(errorMessage(error));
      });
    return () => {
      live = false;
    };
  }, [token, navigate]);

  useEffect(() => {
    if (failure) void ensureSession();
  }, [failure]);

  if (alreadyVerified) {
    return (
      <section className="pub-container auth-page">
        <AuthCard
          title={verificationMessages.alreadyVerifiedTitle}
          lead={verificationMessages.alreadyVerifiedLead}
        >
          <div className="auth-notice">
            <div className="auth-notice__actions">
              {status === 'signedIn' ? (
                <Link className="pub-btn pub-btn--primary" to="/dashboard">
                  Go to your dashboard
                </Link>
              ) : status === 'signedOut' ? (
                <Link className="pub-btn pub-btn--primary" to="/login">
                  Sign In
                </Link>
              ) : null}
            </div>
          </div>
        </AuthCard>
      </section>
    );
  }

  if (!failure) {
    return (
      <section className="pub-container auth-page">
        <Loading />
      </section>
    );
  }

  return (
    <section className="pub-container auth-page">
      <AuthCard title="We could not verify your email" lead={failure}>
        <div className="auth-notice">
          {status === 'signedIn' && me && !me.emailVerified ? (
            <div className="auth-notice__actions">
              <Button busy={busy} disabled={busy} onClick={() => void resend(me.email)}>
                Resend verification email
              </Button>
            </div>
          ) : status === 'signedIn' ? (
            <div className="auth-notice__actions">
              <Link className="pub-btn pub-btn--primary" to="/dashboard">
                Go to your dashboard
              </Link>
            </div>
          ) : status === 'signedOut' ? (
            <>
              <p className="auth-small">Sign in to send yourself a new link.</p>
              <div className="auth-notice__actions">
                <Link className="pub-btn pub-btn--primary" to="/login">
                  Sign In
                </Link>
              </div>
            </>
          ) : null}
          <LocalMailboxLink />
        </div>
      </AuthCard>
    </section>
  );
}
