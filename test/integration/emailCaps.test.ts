/**
 * E-mail abuse (docs/decisions.md "E-mail abuse"): every e-mail a stranger can
 * make us send has a per-recipient daily cap. Each request below comes from a
 * new client address, so only the per-recipient cap can bite; over it the
 * route answers exactly as on success and nothing is sent. The
 * invite-your-manager e-mail carries only the requester's name, made safe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_CAPS } from '../../lambdas/src/services/accounts';
import { api, registerManager, uniqueEmail } from '../support/accountFlows';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';

let stack: IntegrationStack;

beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function mailsTo(address: string, subject: RegExp) {
  return (await stack.mailbox.to(address)).filter((m) => subject.test(m.subject));
}

/** The answer without its request id, which differs per request. */
function sameness(res: { status: number; body: unknown }) {
  return JSON.stringify({ status: res.status, body: res.body });
}

describe('per-recipient daily e-mail caps', () => {
  it('password recovery: over the cap answers as on success and sends nothing', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const answers: { status: number; body: unknown }[] = [];
    for (let i = 0; i < EMAIL_CAPS.passwordReset + 2; i++)
      answers.push(await postJson(`${stack.apiUrl}/auth/forgotPassword`, { email: manager.email }));
    expect(new Set(answers.map(sameness)).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
    expect(await mailsTo(manager.email, /Reset your/)).toHaveLength(EMAIL_CAPS.passwordReset);
  });

  it('verification resend: the sign-up e-mail counts; over the cap answers as on success and sends nothing', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const answers: { status: number; body: unknown }[] = [];
    // The route allows 3 resends per 10 minutes; with sign-up's e-mail that is one over the cap.
    for (let i = 0; i < EMAIL_CAPS.verification; i++)
      answers.push(
        await api(stack.apiUrl, 'POST', '/auth/resendVerification', { token: manager.accessToken, body: {} }),
      );
    expect(new Set(answers.map(sameness)).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
    expect(await mailsTo(manager.email, /Verify your email/)).toHaveLength(EMAIL_CAPS.verification);
  });

  it('invitations: re-inviting one address past the cap stores it, sends nothing more and says so', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const email = uniqueEmail('invitee');
    const answers: { status: number; body: unknown }[] = [];
    for (let i = 0; i < EMAIL_CAPS.invitation + 2; i++)
      answers.push(
        await api(stack.apiUrl, 'POST', '/invitations', {
          token: manager.accessToken,
          body: { emails: email },
        }),
      );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // Each answer is the invitation as stored, and whether its e-mail went: the manager is not told one did past the cap.
    expect(answers.map((a) => a.body)).toEqual(
      answers.map((_, i) => ({
        results: [
          {
            email,
            result: i === 0 ? 'invited' : 'reinvited',
            budgetCents: 2500,
            ...(i === 0 ? {} : { previousBudgetCents: 2500 }),
            emailed: i < EMAIL_CAPS.invitation,
          },
        ],
      })),
    );
    // The first says "invited you", each resend "updated your invitation".
    expect(await mailsTo(email, /invited you|updated your invitation/)).toHaveLength(EMAIL_CAPS.invitation);
  });

  it('invite-your-manager: over the cap answers as on success and sends nothing', async () => {
    const boss = uniqueEmail('boss');
    const answers: { status: number; body: unknown }[] = [];
    for (let i = 0; i < EMAIL_CAPS.managerInvitation + 2; i++)
      answers.push(
        await postJson(`${stack.apiUrl}/auth/inviteManager`, { managerEmail: boss, fromName: 'Ada' }),
      );
    expect(new Set(answers.map(sameness)).size).toBe(1);
    expect(answers[0]?.status).toBe(200);
    expect(await mailsTo(boss, /would like a learning budget/)).toHaveLength(EMAIL_CAPS.managerInvitation);
    // The cap is per recipient: another address is e-mailed at once.
    const other = uniqueEmail('boss');
    await postJson(`${stack.apiUrl}/auth/inviteManager`, { managerEmail: other, fromName: 'Ada' });
    expect(await mailsTo(other, /would like a learning budget/)).toHaveLength(1);
  });
});

describe('invite-your-manager carries no free text but a safe name', () => {
  it('drops links, digits, control and bidi characters and the typed address; cuts the name to 40 characters', async () => {
    const boss = uniqueEmail('boss');
    const res = await postJson(`${stack.apiUrl}/auth/inviteManager`, {
      managerEmail: boss,
      fromName:
        'Ada\u202E Visit https://evil.example/x?y=1 now\u0000 call 555-0100 and win a free laptop today',
      fromEmail: 'phish@evil.example',
    });
    expect(res.status).toBe(200);
    const [mail] = await stack.mailbox.to(boss);
    // The subject and the first line carry the name; the rest is our fixed text and link.
    const text = `${mail?.subject}\n${mail?.body.text?.split('\n')[0]}`;
    // What is left is words: no scheme, host, path, digits, control or bidi characters.
    expect(text).not.toMatch(/:\/\/|evil\.example|phish|\d{3}|\u202E/);
    expect(text).not.toContain('\u0000');
    expect(mail?.subject).toBe(
      'Ada Visit https evil example x y now cal would like a learning budget at work',
    );
  });
});
