/**
 * /auth/callback - where Cognito's hosted UI sends the browser back after
 * Google or Facebook sign-in (config.json `oauthRedirect`). The code and this
 * tab's PKCE verifier go to POST /auth/social (auth/session.ts); then the
 * session is ours as after any sign-in: /dashboard, the authenticator code
 * first when the account has one (MFA_REQUIRED, the same step as /login), the
 * account's password once when the provider is not joined to it yet
 * (PASSWORD_REQUIRED), or /login with 'Login Failed!'.
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
import { SocialPasswordStep } from './SocialPasswordStep';

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

/** What the page asks next: nothing yet (the exchange runs), the code, or the account's password. */
type Step = { ask: 'nothing' } | { ask: 'code' } | { ask: 'password'; lead: string };

function notifyFailure(error: unknown) {
  notify({
    kind: 'error',
    title: signInMessages.failedTitle,
    message: failureMessage(error),
    about: 'signIn',
  });
}

export function SocialCallbackPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ ask: 'nothing' });
  useDocumentTitle(step.ask === 'nothing' ? 'Signing in' : 'Sign In');

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
          setStep({ ask: 'code' });
          return;
        }
        if (error instanceof ApiError && error.code === 'PASSWORD_REQUIRED') {
          setStep({ ask: 'password', lead: error.message });
          return;
        }
        notifyFailure(error);
        navigate('/login', { replace: true });
      },
    );
    return () => {
      live = false;
    };
  }, [navigate]);

  const onStepFailure = (error: unknown) => {
    notifyFailure(error);
    // 401 without a field: the pending sign-in has expired (5 minutes); start over.
    // Anything else (offline, rate limited) leaves it pending: stay and let them retry.
    if (error instanceof ApiError && error.status === 401) navigate('/login', { replace: true });
  };

  if (step.ask === 'code') {
    return (
      <section className="pub-container auth-page">
        <SecondFactorStep
          submit={async (code) => (await loadSession()).completeSocialSecondFactor(code)}
          onFailure={onStepFailure}
          onBack={() => navigate('/login', { replace: true })}
        />
      </section>
    );
  }

  if (step.ask === 'password') {
    return (
      <section className="pub-container auth-page">
        <SocialPasswordStep
          lead={step.lead}
          submit={async (password) => (await loadSession()).completeSocialPassword(password)}
          onSignedIn={() => {
            settleNotices('signIn');
            navigate(takeReturnTo(), { replace: true });
          }}
          onCodeRequired={() => setStep({ ask: 'code' })}
          onFailure={onStepFailure}
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
