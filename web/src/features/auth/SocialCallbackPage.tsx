/**
 * /auth/callback - where Cognito sends the browser back after Google or
 * Facebook sign-in (config.json `oauthRedirect`). Amplify (loaded only here
 * and on the buttons) exchanges the code; then the session is ours as after
 * any sign-in: /dashboard, or /login with 'Login Failed!'.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../api/errors';
import { Loading } from '../../app/Loading';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { signInMessages } from '../../content/accountMessages';
import { notify } from '../../stores/notifications';

let pending: Promise<unknown> | undefined;

export function SocialCallbackPage() {
  useDocumentTitle('Signing in');
  const navigate = useNavigate();

  useEffect(() => {
    let live = true;
    pending ??= import('../../auth/session').then((session) => session.completeSocialSignIn());
    pending.then(
      () => live && navigate('/dashboard', { replace: true }),
      (error: unknown) => {
        if (!live) return;
        notify({
          kind: 'error',
          title: signInMessages.failedTitle,
          message: error instanceof Error && !('code' in error) ? error.message : errorMessage(error),
        });
        navigate('/login', { replace: true });
      },
    );
    return () => {
      live = false;
    };
  }, [navigate]);

  return (
    <section className="pub-container auth-page">
      <Loading />
    </section>
  );
}
