/**
 * /unsubscribe?token=... - the link in the body of a monthly e-mail (issue 26:
 * the nudge, the manager's digest). Opening it changes nothing: mail scanners
 * open links on their own, so only the button (a POST, as the mail client's
 * own one-click is) stops the e-mail. No sign-in needed: the token is the proof.
 */
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { call, errorMessage } from '../../api/client';
import { Button } from '../../components/Button';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { AuthCard } from '../auth/AuthCard';

type State = { step: 'ask' } | { step: 'done'; setting: string } | { step: 'failed'; message: string };

export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [state, setState] = useState<State>(
    token ? { step: 'ask' } : { step: 'failed', message: 'This unsubscribe link is incomplete.' },
  );
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const { setting } = await call('unsubscribeEmail', { token });
      setState({ step: 'done', setting });
    } catch (error) {
      setState({ step: 'failed', message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  if (state.step === 'done') {
    return (
      <section className="pub-container auth-page">
        <AuthCard title="You are unsubscribed" lead="We will not send you this monthly e-mail again.">
          <p>
            Changed your mind? Turn &ldquo;{state.setting}&rdquo; back on in{' '}
            <Link to="/editProfile">your profile</Link>.
          </p>
        </AuthCard>
      </section>
    );
  }
  if (state.step === 'failed') {
    return (
      <section className="pub-container auth-page">
        <AuthCard title="We could not unsubscribe you" lead={state.message}>
          <p>
            You can turn the monthly e-mails off in <Link to="/editProfile">your profile</Link> once signed
            in.
          </p>
        </AuthCard>
      </section>
    );
  }
  return (
    <section className="pub-container auth-page">
      <AuthCard
        title="Stop this monthly e-mail?"
        lead="You will no longer get this monthly e-mail from Learning Budget. Your card and your budget stay as they are."
      >
        <form onSubmit={onSubmit} aria-label="Unsubscribe">
          <Button type="submit" busy={busy} disabled={busy}>
            Unsubscribe
          </Button>
        </form>
      </AuthCard>
    </section>
  );
}
