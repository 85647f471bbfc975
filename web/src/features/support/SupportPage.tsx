/**
 * /support - the contact form (spec §2, §5 "Contact form", §8). Validated with
 * the schema the server uses, including the spec's quirk: an empty message
 * reads 'Subject is required'. Success clears the form.
 */

import { sendContactMessageInput } from '@shared/schemas/public';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, call, errorMessage, isAbortError } from '../../api/client';
import { Button } from '../../components/Button';
import { SocialLinks } from '../../components/SocialLinks';
import { TextField } from '../../components/TextField';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { useSchemaForm } from '../../components/useSchemaForm';
import { contactMessages } from '../../content/messages';
import { notify, settleNotices } from '../../stores/notifications';

export function SupportPage() {
  useDocumentTitle('Contact Us');
  const form = useSchemaForm(sendContactMessageInput, { name: '', email: '', subject: '', message: '' });
  const [sending, setSending] = useState(false);
  const request = useRef<AbortController | null>(null);

  useEffect(() => () => request.current?.abort(), []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    const input = form.validate();
    if (!input) return;

    setSending(true);
    const controller = new AbortController();
    request.current = controller;
    try {
      await call('sendContactMessage', input, { signal: controller.signal });
      form.reset();
      settleNotices('contact');
      notify({ kind: 'success', message: contactMessages.success });
    } catch (error) {
      if (isAbortError(error)) return;
      if (error instanceof ApiError && error.status === 400) form.applyServerErrors(error.fields);
      notify({ kind: 'error', message: contactMessages.failure(errorMessage(error)), about: 'contact' });
    } finally {
      if (!controller.signal.aborted) setSending(false);
    }
  }

  return (
    <section className="pub-container pub-form-page pub-form-page--wide">
      <div className="pub-card">
        <h1 className="pub-page__title">Contact Us</h1>
        <p className="pub-page__lead">
          Questions about budgets, cards or your account? Send us a message and we will answer by email.
        </p>
        <form className="pub-form" noValidate onSubmit={onSubmit} aria-label="Contact form">
          <div className="pub-form__row">
            <TextField label="Name" autoComplete="name" required maxLength={100} {...form.field('name')} />
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              {...form.field('email')}
            />
          </div>
          <TextField label="Subject" hint="Optional" maxLength={200} {...form.field('subject')} />
          <TextField
            label="Message"
            multiline
            rows={6}
            required
            maxLength={5000}
            {...form.field('message')}
          />
          <Button type="submit" disabled={sending} busy={sending}>
            Send Message
          </Button>
        </form>
      </div>
      <aside className="pub-aside" aria-labelledby="support-social">
        <h2 id="support-social" className="pub-aside__title">
          Find us online
        </h2>
        <p>Follow us for product news, or read our blog.</p>
        <SocialLinks label="Social media" />
      </aside>
    </section>
  );
}
