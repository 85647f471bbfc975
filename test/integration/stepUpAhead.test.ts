/**
 * Step-up said beforehand (issue 25, point 4): the web app asks 'Confirm it is
 * you' before sending an action the server would refuse with
 * STEP_UP_REQUIRED, so a normal flow shows no failed request. It learns that
 * from GET /me/secondFactor `stepUpNeeded` (this token has no fresh factor)
 * and from the previews' `needsFreshFactor` (this one passes the step-up
 * threshold): deposits, reallocations, and the new monthly commitments
 * (invitations, the setup wizard's, budget raises). What they say agrees with
 * what the action then does, at the threshold's edge, and the action still
 * checks for itself (a client that ignores them is refused as before).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, PASSWORD, registerManager, uniqueEmail } from '../support/accountFlows';
import { forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { ADDRESS, joinTeam, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const stepUpNeeded = async (token: string) =>
  (await api(stack.apiUrl, 'GET', '/me/secondFactor', { token })).body.stepUpNeeded;

describe('GET /me/secondFactor stepUpNeeded', () => {
  it('is false after sign-in, true once the factor is stale (as the refusal), false again after step-up', async () => {
    const { manager } = await setUpTeam(stack);
    const token = manager.accessToken;
    expect(await stepUpNeeded(token)).toBe(false);

    await forgetStepUps(manager.userId);
    expect(await stepUpNeeded(token)).toBe(true);
    // The server still refuses on its own: an 'always' route sent regardless.
    const refused = await send('DELETE', '/billing/cards/card_none', token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('STEP_UP_REQUIRED');

    const proved = await api(stack.apiUrl, 'POST', '/auth/stepUp', { token, body: { password: PASSWORD } });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    expect(await stepUpNeeded(token)).toBe(false);
    // Now past the step-up: refused for what it is, not for the factor.
    const after = await send('DELETE', '/billing/cards/card_none', token);
    expect(after.body.error?.code).not.toBe('STEP_UP_REQUIRED');
  });

  it('is false for an employee, who is never asked', async () => {
    const { manager } = await setUpTeam(stack);
    const employee = await joinTeam(stack, manager, 25);
    await forgetStepUps(employee.userId);
    expect(await stepUpNeeded(employee.accessToken)).toBe(false);
  });
});

describe('previews needsFreshFactor', () => {
  it('deposit: says whether this one passes the threshold today, as the deposit then decides', async () => {
    const { manager } = await setUpTeam(stack);
    const token = manager.accessToken;
    // Committed today: $25 a month for the person invited.
    const member = await joinTeam(stack, manager, 25);
    await forgetStepUps(manager.userId);
    const part = { userIds: [member.userId], amount: 300 };

    const first = await send('POST', '/funds/deposit/preview', token, part);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.needsFreshFactor).toBe(false);
    const made = await send('POST', '/funds/deposit', token, part, `d-${randomUUID()}`);
    expect(made.status, JSON.stringify(made.body)).toBe(200);

    // $325 today: another $300 passes $500, and the factor is stale.
    const second = await send('POST', '/funds/deposit/preview', token, part);
    expect(second.body.needsFreshFactor).toBe(true);
    const refused = await send('POST', '/funds/deposit', token, part, `d-${randomUUID()}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('STEP_UP_REQUIRED');

    // $175 more still fits under it ($500 exactly).
    const small = { userIds: [member.userId], amount: 175 };
    expect((await send('POST', '/funds/deposit/preview', token, small)).body.needsFreshFactor).toBe(false);
    const fits = await send('POST', '/funds/deposit', token, small, `d-${randomUUID()}`);
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
  });

  it('reallocation: says whether the money moved passes the threshold today, as the reallocation then decides', async () => {
    const { manager } = await setUpTeam(stack);
    const token = manager.accessToken;
    // Committed today: $400 + $30 + $25 a month for the three people invited.
    const big = await joinTeam(stack, manager, 400);
    const small = await joinTeam(stack, manager, 30);
    const receiver = await joinTeam(stack, manager, 25);
    const removed = await send('POST', '/employees/delete', token, { userIds: [big.userId, small.userId] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await forgetStepUps(manager.userId);

    const ofBig = { deletedUserIds: [big.userId], receiverIds: [receiver.userId] };
    const ofSmall = { deletedUserIds: [small.userId], receiverIds: [receiver.userId] };
    const bigPreview = await send('POST', '/funds/reallocate/preview', token, ofBig);
    expect(bigPreview.status, JSON.stringify(bigPreview.body)).toBe(200);
    expect(bigPreview.body.needsFreshFactor).toBe(true);
    const refused = await send('POST', '/funds/reallocate', token, ofBig, `r-${randomUUID()}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('STEP_UP_REQUIRED');

    // $455 committed, nothing moved: $30 more is $485, not past it.
    const smallPreview = await send('POST', '/funds/reallocate/preview', token, ofSmall);
    expect(smallPreview.body).toMatchObject({ amountCents: 3000, needsFreshFactor: false });
    const moved = await send('POST', '/funds/reallocate', token, ofSmall, `r-${randomUUID()}`);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });
});

describe('commitment previews needsFreshFactor', () => {
  const stepUpRefused = (answer: { status: number; body: any }) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(403);
    expect(answer.body.error.code).toBe('STEP_UP_REQUIRED');
  };

  it('invitations: counted as the invitation counts them (pending, registered, invalid), to the cent of $500', async () => {
    const { manager } = await setUpTeam(stack);
    const token = manager.accessToken;
    // Committed today: $25 a month for the person invited.
    const member = await joinTeam(stack, manager, 25);
    await forgetStepUps(manager.userId);
    const preview = async (body: { emails: string; budget: number }) => {
      const answer = await send('POST', '/invitations/preview', token, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.needsFreshFactor as boolean;
    };

    // $25 + 2 x $300 passes $500: said so, and refused so, nobody invited.
    const twoBig = { emails: `${uniqueEmail('a')}, ${uniqueEmail('b')}`, budget: 300 };
    expect(await preview(twoBig)).toBe(true);
    stepUpRefused(await send('POST', '/invitations', token, twoBig));

    // $25 + $475 is $500 exactly: not past it, and invited without a factor.
    const ann = uniqueEmail('ann');
    const toTheEdge = { emails: `${ann}, not-an-address, ${member.email}`, budget: 475 };
    expect(await preview(toTheEdge)).toBe(false);
    const invited = await send('POST', '/invitations', token, toTheEdge);
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect(invited.body.results.map((r: { result: string }) => r.result)).toEqual([
      'invited',
      'invalidEmail',
      'alreadyRegistered',
    ]);

    // Inviting the pending address again at its budget adds nothing; a dollar more passes $500.
    expect(await preview({ emails: ann, budget: 475 })).toBe(false);
    const again = await send('POST', '/invitations', token, { emails: ann, budget: 475 });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.results[0].result).toBe('reinvited');
    expect(await preview({ emails: ann, budget: 476 })).toBe(true);
    stepUpRefused(await send('POST', '/invitations', token, { emails: ann, budget: 476 }));
    expect(await preview({ emails: uniqueEmail('c'), budget: 1 })).toBe(true);

    // Once a factor is proven the action goes through; the preview still says the amount needs one.
    const proved = await api(stack.apiUrl, 'POST', '/auth/stepUp', { token, body: { password: PASSWORD } });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    expect(await preview({ emails: ann, budget: 476 })).toBe(true);
    const raised = await send('POST', '/invitations', token, { emails: ann, budget: 476 });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
  });

  it("the setup wizard's invitations: the same preview, as finalizing setup then decides", async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const token = manager.accessToken;
    await forgetStepUps(manager.userId);
    const setup = (invite: { emails: string; budget: number }) =>
      send(
        'POST',
        '/billing/setup',
        token,
        { businessName: 'Edge Co', token: 'tok_visa', billingAddress: ADDRESS, invite },
        `setup-${randomUUID()}`,
      );

    const over = { emails: `${uniqueEmail('a')}, ${uniqueEmail('b')}`, budget: 251 };
    const overPreview = await send('POST', '/invitations/preview', token, over);
    expect(overPreview.status, JSON.stringify(overPreview.body)).toBe(200);
    expect(overPreview.body.needsFreshFactor).toBe(true);
    stepUpRefused(await setup(over));

    // 2 x $250 is $500 exactly.
    const edge = { emails: `${uniqueEmail('a')}, ${uniqueEmail('b')}`, budget: 250 };
    expect((await send('POST', '/invitations/preview', token, edge)).body.needsFreshFactor).toBe(false);
    const done = await setup(edge);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.invited).toBe(2);
  });

  it('budget raises: what the raise adds, as saving it then decides; only for an employee of the team', async () => {
    const { manager } = await setUpTeam(stack);
    const token = manager.accessToken;
    // Committed today: $25 a month for the person invited.
    const member = await joinTeam(stack, manager, 25);
    await forgetStepUps(manager.userId);
    const preview = async (budget: number) => {
      const answer = await send('POST', `/users/${member.userId}/budget/preview`, token, { budget });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.needsFreshFactor as boolean;
    };
    const save = (budget: number) =>
      send('PUT', `/users/${member.userId}`, token, {
        userId: member.userId,
        firstName: 'Rae',
        lastName: 'Raised',
        budget,
      });

    // To $526: $501 more, with the $25 of today, passes $500.
    expect(await preview(526)).toBe(true);
    stepUpRefused(await save(526));
    // To $475: $450 more, $475 today in all.
    expect(await preview(475)).toBe(false);
    expect((await save(475)).status).toBe(200);
    // From $475: $25 more is $500 exactly; $26 more is past it.
    expect(await preview(500)).toBe(false);
    expect(await preview(501)).toBe(true);
    stepUpRefused(await save(501));
    // A decrease commits nothing.
    expect(await preview(10)).toBe(false);
    const saved = await save(500);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.nextBudgetCents).toBe(500_00);
    expect(await preview(501)).toBe(true);

    // Another team's manager: not found, as for the save; the employee may not ask.
    const other = await setUpTeam(stack);
    const foreign = await send('POST', `/users/${member.userId}/budget/preview`, other.manager.accessToken, {
      budget: 30,
    });
    expect(foreign.status).toBe(404);
    const self = await send('POST', `/users/${member.userId}/budget/preview`, member.accessToken, {
      budget: 30,
    });
    expect(self.status).toBe(403);
  });
});
