/**
 * /subscribe - the launch waitlist (spec §2, §4 "Waitlist", §5, §8).
 * Name and email required, company optional; validated with the schema the
 * server uses. Success: 'Interest logged' for 3 s, then home after 4 s.
 */

import { joinWaitlistInput } from '@shared/schemas/public';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError, call, errorMessage, isAbortError } from '../../api/client';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSchemaForm } from '../../components/useSchemaForm';
import { waitlistMessages } from '../../content/messages';
import { WAITLIST_NOTIFICATION_MS, WAITLIST_REDIRECT_MS } from '../../content/timings';
import { notify, settleNotices } from '../../stores/notifications';

type Status = 'idle' | 'sending' | 'done';

export function SubscribePage() {
  useDocumentTitle('Join the Waitlist');
  const navigate = useNavigate();
  const form = useSchemaForm(joinWaitlistInput, { name: '', email: '', company: '' });
  const [status, setStatus] = useState<Status>('idle');
  const request = useRef<AbortController | null>(null);

  useEffect(() => () => request.current?.abort(), []);

  useEffect(() => {
    if (status !== 'done') return;
    const timer = setTimeout(() => navigate('/'), WAITLIST_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [status, navigate]);

  // Spec §5: the button is enabled once name and email are non-blank.
  const ready = form.values.name.trim() !== '' && form.values.email.trim() !== '';

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status !== 'idle') return;
    // Also reached by Enter while the button is unavailable: then the schema
    // marks the missing fields, which tells the visitor what is left to do.
    const input = form.validate();
    if (!input) return;

    setStatus('sending');
    const controller = new AbortController();
    request.current = controller;
    try {
      await call('joinWaitlist', input, { signal: controller.signal });
      setStatus('done');
      settleNotices('joinWaitlist');
      notify({
        kind: 'success',
        title: waitlistMessages.successTitle,
        message: waitlistMessages.successText,
        durationMs: WAITLIST_NOTIFICATION_MS,
      });
    } catch (error) {
      if (isAbortError(error)) return;
      setStatus('idle');
      if (error instanceof ApiError && error.status === 400 && form.applyServerErrors(error.fields)) return;
      notify({
        kind: 'error',
        title: waitlistMessages.failureTitle,
        message: errorMessage(error),
        about: 'joinWaitlist',
      });
    }
  }

  return (
    <section className="pub-container pub-form-page">
      <div className="pub-card">
        <h1 className="pub-page__title">We're Launching Soon!</h1>
        <p className="pub-page__lead">
          Leave your name and email and we will let you know as soon as your team can sign up.
        </p>
        <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Join the waitlist">
          <TextField label="Name" autoComplete="name" required maxLength={100} {...form.field('name')} />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            {...form.field('email')}
          />
          <TextField
            label="Company"
            hint="Optional"
            autoComplete="organization"
            maxLength={200}
            {...form.field('company')}
          />
          <Button type="submit" disabled={!ready || status !== 'idle'} busy={status === 'sending'}>
            Join Waitlist
          </Button>
        </form>
      </div>
    </section>
  );
}
