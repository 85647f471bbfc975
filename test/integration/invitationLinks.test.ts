/**
 * Invitation links (issue 24, attack 3; decisions.md "Invitations carry a
 * single-use link"). An invitation is keyed by its address, which others can
 * learn; the secret is the link e-mailed to that address. Sign-up needs it,
 * it works once, it ends when the manager invites again or after
 * INVITATION_LINK_DAYS, and "Enter your email" e-mails a new one to an invited
 * address while answering the same words for any address.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { routes } from '@shared/api/routes';
import { INVITATION_LINK_SENT } from '@shared/schemas/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, INVITATION_LINK_DAYS } from '../../lambdas/src/data/emailTokens';
import { keys } from '../../lambdas/src/data/keys';
import { EMAIL_CAPS, INVITATION_LINK_INVALID } from '../../lambdas/src/services/accounts';
import {
  api,
  linkToken,
  PASSWORD,
  registerManager,
  type SignedIn,
  signIn,
  uniqueEmail,
} from '../support/accountFlows';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  postJson,
  startIntegrationStack,
} from '../support/integrationStack';
import { holdClock, nextWindowStart, releaseClock } from '../support/productClock';

let stack: IntegrationStack;
let manager: SignedIn;

beforeAll(async () => {
  stack = await startIntegrationStack();
  manager = await registerManager(stack.apiUrl, stack.mailbox);
});
afterAll(async () => {
  await stack?.stop();
});

const invite = async (email: string, budget = 25) => {
  const res = await api(stack.apiUrl, 'POST', '/invitations', {
    token: manager.accessToken,
    body: { emails: email, budget },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const signUp = (email: string, token?: string, password = PASSWORD) =>
  postJson(`${stack.apiUrl}/auth/registerEmployee`, {
    firstName: 'Ivy',
    lastName: 'Invited',
    email,
    password,
    zip: '94110',
    ...(token === undefined ? {} : { token }),
  });

const askForLink = (email: string, headers: Record<string, string> = {}) =>
  postJson(`${stack.apiUrl}/auth/invitationCheck`, { email }, headers);

/** The links e-mailed to an address so far, oldest first. */
async function linksTo(email: string): Promise<string[]> {
  return (await stack.mailbox.to(email)).flatMap((mail) => {
    const match = /\/registerEmployee\?\S*token=([A-Za-z0-9_-]+)/.exec(mail.body.text ?? '');
    return match?.[1] ? [match[1]] : [];
  });
}

describe('attack 3: invitations carry a secret', () => {
  it('attack 3: knowing an invited address is not enough to join; the e-mailed link is', async () => {
    const victim = uniqueEmail('victim');
    const other = uniqueEmail('other');
    await invite(victim, 40);
    await invite(other, 40);

    // No link, a made-up one, or another invited person's: refused, and nothing is made.
    const none = await signUp(victim);
    expect(none.status).toBe(400);
    expect(none.body.error.fields.token).toBe('Open the link in your invitation email to join your team');
    const madeUp = await signUp(victim, 'a-guessed-token-of-no-invitation');
    expect(madeUp.status).toBe(404);
    expect(madeUp.body.error.message).toBe(INVITATION_LINK_INVALID);
    const othersLink = await linkToken(stack.mailbox, other, '/registerEmployee');
    const borrowed = await signUp(victim, othersLink);
    expect(borrowed.status).toBe(404);
    expect(borrowed.body.error.message).toBe(INVITATION_LINK_INVALID);
    expect(await stack.getItem(keys.emailClaim(victim))).toBeUndefined();
    expect(await stack.getItem(keys.invitation(victim))).toMatchObject({ budgetCents: 4000 });
    expect((await signIn(stack.apiUrl, victim)).status).toBe(401);

    // The person with the e-mail joins with its link.
    const joined = await signUp(victim, await linkToken(stack.mailbox, victim, '/registerEmployee'));
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(await stack.getItem(keys.user(joined.body.userId))).toMatchObject({
      email: victim,
      budgetCents: 4000,
    });
  });

  it('attack 3: a used link does not work again', async () => {
    const email = uniqueEmail('once');
    await invite(email);
    const link = await linkToken(stack.mailbox, email, '/registerEmployee');
    const first = await signUp(email, link);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(await stack.getItem(keys.emailToken(hashToken(link)))).toMatchObject({
      usedAt: expect.any(String),
    });

    const again = await signUp(email, link, 'taken-over-password');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('An account with this email already exists. Please sign in.');
    // The account is the first sign-up's: its password, not the second's.
    expect((await signIn(stack.apiUrl, email, 'taken-over-password')).status).toBe(401);
    expect((await signIn(stack.apiUrl, email)).status).toBe(200);
  });

  it("attack 3: 'Enter your email' answers the same words for invited, not-invited and registered addresses, and e-mails only the invited", async () => {
    const invited = uniqueEmail('asked');
    const stranger = uniqueEmail('stranger');
    await invite(invited, 30);
    const answers = [
      await askForLink(invited),
      await askForLink(stranger),
      await askForLink(manager.email),
      await askForLink(invited.toUpperCase()),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ message: INVITATION_LINK_SENT });
    }
    expect(INVITATION_LINK_SENT).toBe('If you were invited, a link is on its way to that address');

    // Only the invited address got mail: the invitation and the two links asked for.
    expect(await stack.mailbox.to(stranger)).toHaveLength(0);
    const mails = await stack.mailbox.to(invited);
    expect(mails.map((m) => m.subject)).toEqual([
      'Mary Manager invited you to Learning Budget',
      'Your link to join Acme Learning on Learning Budget',
      'Your link to join Acme Learning on Learning Budget',
    ]);
    expect(mails[1]?.body.text).toContain(
      `The link is yours alone: it works once and expires in ${INVITATION_LINK_DAYS} days.`,
    );

    // A link asked for works, and leaves the invitation's own link as it was (a stranger
    // asking cannot break the link in someone's mailbox): one of them joins, once.
    const [fromManager, asked] = await linksTo(invited);
    expect(fromManager && asked).toBeTruthy();
    const joined = await signUp(invited, asked);
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(await stack.getItem(keys.user(joined.body.userId))).toMatchObject({ budgetCents: 3000 });
    expect((await signUp(invited, fromManager)).status).toBe(409);
    // Joined: asking again sends nothing, in the same words.
    expect((await askForLink(invited)).body).toEqual({ message: INVITATION_LINK_SENT });
    expect(await linksTo(invited)).toHaveLength(3);
  });
});

describe('when a link ends', () => {
  it('the manager inviting again ends the earlier link; the newer one joins with the newer budget', async () => {
    const email = uniqueEmail('again');
    await invite(email, 40);
    const older = await linkToken(stack.mailbox, email, '/registerEmployee');
    await invite(email, 60);
    const newer = await linkToken(stack.mailbox, email, '/registerEmployee');
    expect(newer).not.toBe(older);

    const refused = await signUp(email, older);
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({
      message: INVITATION_LINK_INVALID,
      fields: { token: INVITATION_LINK_INVALID },
    });
    const joined = await signUp(email, newer);
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(await stack.getItem(keys.user(joined.body.userId))).toMatchObject({ budgetCents: 6000 });
  });

  it(`expires after ${INVITATION_LINK_DAYS} days; the person asks for a new one with their address`, async () => {
    const email = uniqueEmail('late');
    await invite(email);
    const link = await linkToken(stack.mailbox, email, '/registerEmployee');
    // The link made INVITATION_LINK_DAYS days and a second ago.
    await stack.doc.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.emailToken(hashToken(link)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const refused = await signUp(email, link);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe(INVITATION_LINK_INVALID);
    // The invitation itself stands: asking with the address e-mails a fresh link, which works.
    expect((await askForLink(email)).body).toEqual({ message: INVITATION_LINK_SENT });
    const fresh = await linkToken(stack.mailbox, email, '/registerEmployee');
    expect(fresh).not.toBe(link);
    expect((await signUp(email, fresh)).status).toBe(201);
  });

  it("a withdrawn invitation's link says the spec's words to its holder", async () => {
    const email = uniqueEmail('withdrawn');
    await invite(email);
    const link = await linkToken(stack.mailbox, email, '/registerEmployee');
    const withdrawn = await api(stack.apiUrl, 'POST', '/invitations/withdraw', {
      token: manager.accessToken,
      body: { emails: email },
    });
    expect(withdrawn.body.results).toEqual([{ email, result: 'withdrawn' }]);
    const refused = await signUp(email, link);
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toBe('Sorry! No one invited you');
    // And asking sends nothing now, in the same words as ever.
    expect((await askForLink(email)).body).toEqual({ message: INVITATION_LINK_SENT });
    expect(await linksTo(email)).toEqual([link]);
  });
});

describe("limits on 'Enter your email'", () => {
  it('e-mails one address at most EMAIL_CAPS.invitationLink times a day, answering the same past it', async () => {
    const email = uniqueEmail('capped');
    await invite(email);
    const answers = [];
    for (let i = 0; i < EMAIL_CAPS.invitationLink + 2; i++) answers.push(await askForLink(email));
    expect(new Set(answers.map((a) => JSON.stringify({ status: a.status, body: a.body }))).size).toBe(1);
    // The manager's invitation plus the capped number of links asked for.
    expect(await linksTo(email)).toHaveLength(1 + EMAIL_CAPS.invitationLink);
  });

  it('lets one client ask a few times per window, then answers 429', async () => {
    const rateLimit = routes.checkInvitation.access.rateLimit;
    if (!rateLimit) throw new Error('the invitation check must be rate limited');
    // The product's clock stands at the start of a window, so the count cannot straddle two.
    holdClock(nextWindowStart(rateLimit.windowSeconds));
    try {
      const oneClient = { [CLIENT_IP_HEADER]: '203.0.113.33' };
      for (let i = 0; i < rateLimit.limit; i++)
        expect((await askForLink(uniqueEmail('probe'), oneClient)).status).toBe(200);
      const refused = await askForLink(uniqueEmail('probe'), oneClient);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
    } finally {
      releaseClock();
    }
  });
});
