/**
 * /auth/callback - where Cognito's hosted UI sends the browser back after
 * Google or Facebook sign-in (config.json `oauthRedirect`). The code and this
 * tab's PKCE verifier go to POST /auth/social (auth/session.ts); then the
 * session is ours as after any sign-in: /dashboard, the authenticator code
 * first when the account has one (MFA_REQUIRED, the same step as /login), or
 * /login with 'Login Failed!'.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, errorMessage } from '../../api/errors';
import { Loading } from '../../app/Loading';
import { takeReturnTo } from '../../auth/returnTo';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { signInMessages } from '../../content/accountMessages';
import { notify, settleNotices } from '../../stores/notifications';
import { SecondFactorStep } from './SecondFactorStep';

/**
 * The exchange, started once per page load (each return from the hosted UI is
 * a new load). Module-level because the code works once: React's development
 * double effect, or any re-run, must share the first answer, not send again.
 */
let pending: Promise<unknown> | undefined;

const loadSession = () => import('../../auth/session');

/** Our own Errors (a return that is not ours, the provider's refusal) carry their message as is. */
function failureMessage(error: unknown): string {
  return error instanceof Error && !('code' in error) ? error.message : errorMessage(error);
}

export function SocialCallbackPage() {
  const navigate = useNavigate();
  const [askCode, setAskCode] = useState(false);
  useDocumentTitle(askCode ? 'Sign In' : 'Signing in');

  useEffect(() => {
    let live = true;
    pending ??= loadSession().then((session) => session.completeSocialSignIn());
    pending.then(
      () => {
        if (!live) return;
        settleNotices('signIn');
        navigate(takeReturnTo(), { replace: true });
      },
      (error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.code === 'MFA_REQUIRED') {
          setAskCode(true);
          return;
        }
        notify({
          kind: 'error',
          title: signInMessages.failedTitle,
          message: failureMessage(error),
          about: 'signIn',
        });
        navigate('/login', { replace: true });
      },
    );
    return () => {
      live = false;
    };
  }, [navigate]);

  if (askCode) {
    return (
      <section className="pub-container auth-page">
        <SecondFactorStep
          submit={async (code) => (await loadSession()).completeSocialSecondFactor(code)}
          onFailure={(error) => {
            notify({
              kind: 'error',
              title: signInMessages.failedTitle,
              message: failureMessage(error),
              about: 'signIn',
            });
            // 401 without a field: the pending sign-in has expired (5 minutes); start over.
            // Anything else (offline, rate limited) leaves it pending: stay and let them retry.
            if (error instanceof ApiError && error.status === 401) navigate('/login', { replace: true });
          }}
          onBack={() => navigate('/login', { replace: true })}
        />
      </section>
    );
  }

  return (
    <section className="pub-container auth-page">
      <Loading />
    </section>
  );
}
