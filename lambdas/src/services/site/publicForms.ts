/** Use cases of the public site's forms: the waitlist and the contact form. */

import type { joinWaitlistInput, sendContactMessageInput } from '@shared/schemas/public';
import type { z } from 'zod';
import { newId } from '../../adapters/clock';
import { sendEmail } from '../../adapters/email';
import { upsertLead } from '../../data/leads';
import { markMessageEmailed, putMessage } from '../../data/messages';
import { mailConfig } from '../../platform/config';
import { errorFields, type Logger } from '../../platform/log';

export async function joinWaitlist(input: z.output<typeof joinWaitlistInput>, now: Date): Promise<void> {
  await upsertLead(input, now.toISOString());
}

/**
 * The stored message is the record support works from; the e-mail is a
 * notification of it. So the message is stored first, and a failed e-mail is
 * logged (the message keeps no `emailedAt`) rather than losing what the person
 * wrote or making them send it twice.
 */
export async function sendContactMessage(
  input: z.output<typeof sendContactMessageInput>,
  now: Date,
  log: Logger,
): Promise<{ messageId: string; emailed: boolean }> {
  const messageId = newId(now);
  const createdAt = now.toISOString();
  await putMessage({ messageId, createdAt, ...input });
  try {
    await sendEmail({
      to: [mailConfig().SUPPORT_INBOX],
      replyTo: [input.email],
      subject: `Support: ${input.subject ?? '(no subject)'} - from ${input.name}`,
      text: [
        `From: ${input.name} <${input.email}>`,
        `Subject: ${input.subject ?? '(none)'}`,
        `Received: ${createdAt}`,
        `Message id: ${messageId}`,
        '',
        input.message,
      ].join('\n'),
    });
    await markMessageEmailed(messageId, new Date().toISOString());
    return { messageId, emailed: true };
  } catch (error) {
    log.error('support e-mail failed; the message is stored', { messageId, ...errorFields(error) });
    return { messageId, emailed: false };
  }
}
