import { z } from 'zod';
import { optionalText, requiredEmail, requiredText } from './common';

/** /subscribe - the waitlist (spec §5 "Waitlist": name and email required, company optional). */
export const joinWaitlistInput = z.object({
  name: requiredText('Name is required', 100),
  email: requiredEmail,
  company: optionalText(200),
});
export type JoinWaitlistInput = z.input<typeof joinWaitlistInput>;

/**
 * /support - the contact form (spec §5 "Contact form"). The spec's own wording is
 * kept: an empty *message* reads 'Subject is required', and the subject itself is
 * not required.
 */
export const sendContactMessageInput = z.object({
  name: requiredText('Name is required', 100),
  email: requiredEmail,
  subject: optionalText(200),
  message: requiredText('Subject is required', 5000, 'Message must be at most 5000 characters'),
});
export type SendContactMessageInput = z.input<typeof sendContactMessageInput>;
