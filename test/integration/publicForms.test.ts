import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import {
  type IntegrationStack,
  postJson,
  startIntegrationStack,
  TEST_SUPPORT_INBOX,
} from '../support/integrationStack';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('POST /waitlist', () => {
  it('stores a lead under its lower-cased e-mail and lists it in the month index', async () => {
    const res = await postJson(`${stack.apiUrl}/waitlist`, {
      name: '  Ada Lovelace ',
      email: 'Ada@Example.COM',
      company: 'Analytical Engines',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true });

    const lead = await stack.getItem(keys.lead('ada@example.com'));
    expect(lead).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Analytical Engines',
    });
    const month = String(lead?.createdAt).slice(0, 7);
    const listed = await stack.queryIndex('gsi1', `LEADS#${month}`);
    expect(listed.map((l) => l.email)).toContain('ada@example.com');
  });

  it('joining twice keeps one lead with the first creation time and the latest details', async () => {
    await postJson(`${stack.apiUrl}/waitlist`, { name: 'Grace', email: 'grace@example.com' });
    const first = await stack.getItem(keys.lead('grace@example.com'));
    await postJson(`${stack.apiUrl}/waitlist`, {
      name: 'Grace Hopper',
      email: 'GRACE@example.com',
      company: 'Navy',
    });
    const second = await stack.getItem(keys.lead('grace@example.com'));
    expect(second?.createdAt).toBe(first?.createdAt);
    expect(second).toMatchObject({ name: 'Grace Hopper', company: 'Navy' });
  });

  it('refuses missing name and bad e-mail with per-field messages and stores nothing', async () => {
    const res = await postJson(`${stack.apiUrl}/waitlist`, { name: '   ', email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.fields).toEqual({ name: 'Name is required', email: 'Email is invalid' });
    expect(res.body.error.requestId).toBeTruthy();
    expect(await stack.getItem(keys.lead('not-an-email'))).toBeUndefined();
  });

  it('says "Email is required" when the e-mail is missing', async () => {
    const res = await postJson(`${stack.apiUrl}/waitlist`, { name: 'No Mail' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.email).toBe('Email is required');
  });

  it('refuses a body over the route limit with 413 before storing anything', async () => {
    const res = await postJson(`${stack.apiUrl}/waitlist`, {
      name: 'Big',
      email: 'big@example.com',
      company: 'x'.repeat(5000),
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await stack.getItem(keys.lead('big@example.com'))).toBeUndefined();
  });

  it('refuses a body that is not JSON', async () => {
    const res = await postJson(`${stack.apiUrl}/waitlist`, '{"name": "broken"');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('MALFORMED_REQUEST');
  });

  it('refuses a body sent as another media type', async () => {
    const response = await fetch(`${stack.apiUrl}/waitlist`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ name: 'Plain', email: 'plain@example.com' }),
    });
    expect(response.status).toBe(400);
    expect(await stack.getItem(keys.lead('plain@example.com'))).toBeUndefined();
  });
});

describe('POST /messages', () => {
  it('stores the message and e-mails the support inbox with the sender as reply-to', async () => {
    const res = await postJson(`${stack.apiUrl}/messages`, {
      name: 'Katherine Johnson',
      email: 'katherine.johnson@example.com',
      subject: 'Card question',
      message: 'How long do extra funds take to arrive?',
    });
    expect(res.status).toBe(201);

    const inbox = await stack.mailbox.to(TEST_SUPPORT_INBOX);
    const mail = inbox.find((m) => m.replyTo?.includes('katherine.johnson@example.com'));
    expect(mail?.subject).toContain('Card question');
    expect(mail?.body.text).toContain('How long do extra funds take to arrive?');

    const month = new Date().toISOString().slice(0, 7);
    const stored = (await stack.queryIndex('gsi1', `MESSAGES#${month}`)).find(
      (m) => m.email === 'katherine.johnson@example.com',
    );
    expect(stored).toMatchObject({
      subject: 'Card question',
      message: 'How long do extra funds take to arrive?',
    });
    expect(stored?.emailedAt).toBeTruthy();
  });

  it('keeps the spec wording: an empty message reads "Subject is required"; subject is optional', async () => {
    const res = await postJson(`${stack.apiUrl}/messages`, {
      name: '',
      email: '',
      subject: '',
      message: '  ',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      message: 'Subject is required',
    });
  });

  it('sends nothing and stores nothing for an invalid message', async () => {
    // The mailbox is shared with files running beside this one: look for this message's own words,
    // not at the mailbox's size.
    const marker = `spam-${randomUUID()}`;
    const res = await postJson(`${stack.apiUrl}/messages`, {
      name: 'Eve',
      email: 'eve@invalid',
      message: marker,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ email: 'Email is invalid' });
    const carrying = (await stack.mailbox.all()).filter((m) => JSON.stringify(m).includes(marker));
    expect(carrying).toEqual([]);
    const month = new Date().toISOString().slice(0, 7);
    const stored = await stack.queryIndex('gsi1', `MESSAGES#${month}`);
    expect(stored.some((m) => m.name === 'Eve')).toBe(false);
  });

  it('does not let a subject with line breaks forge e-mail headers', async () => {
    const res = await postJson(`${stack.apiUrl}/messages`, {
      name: 'Mallory',
      email: 'mallory@example.com',
      subject: 'Hi\r\nBcc: victim@example.com',
      message: 'Hello',
    });
    expect(res.status).toBe(201);
    const mail = (await stack.mailbox.all()).find((m) => m.replyTo?.includes('mallory@example.com'));
    expect(mail?.subject).not.toMatch(/[\r\n]/);
    expect(mail?.destination.to).toEqual([TEST_SUPPORT_INBOX]);
  });
});

describe('the gateway', () => {
  it('answers CORS preflight for the web origin only', async () => {
    const allowed = await fetch(`${stack.apiUrl}/waitlist`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5999', 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5999');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('content-type');

    const other = await fetch(`${stack.apiUrl}/waitlist`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers 404 for a path that is not in the route table', async () => {
    const res = await fetch(`${stack.apiUrl}/nothing-here`);
    expect(res.status).toBe(404);
  });
});
