/**
 * Outgoing e-mail through SES v2. Locally SES_ENDPOINT points at the SES
 * stand-in, whose mailbox shows every message sent.
 */
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { awsConfig, mailConfig } from '../platform/config';

export interface OutgoingEmail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string[];
  /** Extra headers (the monthly e-mails' List-Unsubscribe); SES refuses the ones it sets itself. */
  headers?: { name: string; value: string }[];
}

let client: SESv2Client | undefined;

function ses(): SESv2Client {
  if (!client) {
    const { SES_ENDPOINT } = mailConfig();
    client = new SESv2Client({
      region: awsConfig().AWS_REGION,
      ...(SES_ENDPOINT ? { endpoint: SES_ENDPOINT } : {}),
    });
  }
  return client;
}

/** Header values may not carry line breaks (header injection); collapse them. */
function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

export async function sendEmail(email: OutgoingEmail): Promise<void> {
  await ses().send(
    new SendEmailCommand({
      FromEmailAddress: mailConfig().MAIL_FROM,
      Destination: { ToAddresses: email.to },
      ReplyToAddresses: email.replyTo,
      Content: {
        Simple: {
          Subject: { Data: singleLine(email.subject), Charset: 'UTF-8' },
          Body: {
            Text: { Data: email.text, Charset: 'UTF-8' },
            ...(email.html ? { Html: { Data: email.html, Charset: 'UTF-8' } } : {}),
          },
          ...(email.headers?.length
            ? { Headers: email.headers.map((h) => ({ Name: h.name, Value: singleLine(h.value) })) }
            : {}),
        },
      },
    }),
  );
}
