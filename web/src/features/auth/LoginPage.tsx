/**
 * /login (spec §2, §4 "Sign-in", §8): work email and password through our
 * sign-in API (Enter submits), 'Login Failed!' with the server's message,
 * success to /dashboard. A random quote beside the form on non-mobile screens.
 * Google / Facebook buttons only when the deployment configures them.
 */

import { signInInput } from '@shared/schemas/auth';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError, errorMessage } from '../../api/errors';
import { takeReturnTo } from '../../auth/returnTo';
import { useSession } from '../../auth/sessionStore';
import { Button } from '../../components/Button';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSchemaForm } from '../../components/useSchemaForm';
import { useSubmit } from '../../components/useSubmit';
import { currentConfig, loadConfig, type SocialProvider, socialSignInProviders } from '../../config';
import { signInMessages } from '../../content/accountMessages';
import { randomQuote } from '../../content/quotes';
import { notify, settleNotices } from '../../stores/notifications';
import { EmailField, PasswordField } from './AccountFields';
import { AuthCard, AuthLinks } from './AuthCard';
import { SecondFactorStep } from './SecondFactorStep';

function QuoteBanner() {
  const [quote] = useState(randomQuote);
  return (
    <figure className="auth-quote">
      <p className="auth-quote__label">Words on learning</p>
      <blockquote>
        <p>“{quote.text}”</p>
      </blockquote>
      <figcaption>— {quote.author}</figcaption>
    </figure>
  );
}

function SocialButtons() {
  const [providers, setProviders] = useState<SocialProvider[]>(() => socialSignInProviders(currentConfig()));
  const [leaving, setLeaving] = useState<SocialProvider | null>(null);
  const signInWithProvider = useSession((s) => s.signInWithProvider);

  useEffect(() => {
    let live = true;
    loadConfig().then(
      (config) => live && setProviders(socialSignInProviders(config)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  if (providers.length === 0) return null;

  async function start(provider: SocialProvider) {
    setLeaving(provider);
    try {
      await signInWithProvider(provider);
    } catch (error) {
      setLeaving(null);
      notify({
        kind: 'error',
        title: signInMessages.failedTitle,
        message: error instanceof Error && error.message ? error.message : errorMessage(error),
        about: 'signIn',
      });
    }
  }

  return (
    <>
      <p className="auth-divider">or</p>
      <div className="auth-social">
        {providers.map((provider) => (
          <Button
            key={provider}
            variant="secondary"
            disabled={leaving !== null}
            busy={leaving === provider}
            onClick={() => void start(provider)}
          >
            Sign in with {provider}
          </Button>
        ))}
      </div>
    </>
  );
}

export function LoginPage() {
  useDocumentTitle('Sign In');
  // "Logout" led here (exitTo); from now on a guarded page sends the signed-out to / again (spec §2).
  useEffect(() => {
    if (useSession.getState().exitTo !== '/') useSession.setState({ exitTo: '/' });
  }, []);
  const navigate = useNavigate();
  const signIn = useSession((s) => s.signIn);
  const form = useSchemaForm(signInInput.omit({ code: true }), { email: '', password: '' });
  const [codeFor, setCodeFor] = useState<{ email: string; password: string } | null>(null);
  const { busy, onSubmit } = useSubmit(form.validate, async (input) => {
    try {
      await signIn(input.email, input.password);
      settleNotices('signIn');
      navigate(takeReturnTo());
    } catch (error) {
      if (error instanceof ApiError && error.code === 'MFA_REQUIRED') {
        setCodeFor({ email: input.email, password: input.password });
        return;
      }
      if (error instanceof ApiError && error.status === 400) form.applyServerErrors(error.fields);
      notify({
        kind: 'error',
        title: signInMessages.failedTitle,
        message: errorMessage(error),
        about: 'signIn',
      });
    }
  });

  if (codeFor) {
    return (
      <section className="pub-container auth-page auth-page--split">
        <QuoteBanner />
        <SecondFactorStep
          submit={(code) => signIn(codeFor.email, codeFor.password, code)}
          onBack={() => setCodeFor(null)}
        />
      </section>
    );
  }

  return (
    <section className="pub-container auth-page auth-page--split">
      <QuoteBanner />
      <AuthCard title="Sign In" lead="Welcome back. Sign in with your work email.">
        <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Sign in">
          <EmailField autoComplete="username" {...form.field('email')} />
          <PasswordField {...form.field('password')} />
          <Button type="submit" disabled={busy} busy={busy}>
            Sign In
          </Button>
        </form>
        <SocialButtons />
        <AuthLinks>
          <li>
            <Link to="/forgotpassword">Forgot password?</Link>
          </li>
          <li>
            <Link to="/register">New here? Create an account</Link>
          </li>
        </AuthLinks>
      </AuthCard>
    </section>
  );
}
