/**
 * Step-up said beforehand (issue 25, point 4): the web app asks 'Confirm it is
 * you' before sending an action the server would refuse with
 * STEP_UP_REQUIRED, so a normal flow shows no failed request. It learns that
 * from GET /me/secondFactor `stepUpNeeded` (this token has no fresh factor)
 * and from the deposit and reallocation previews' `needsFreshFactor` (this one
 * passes the step-up threshold). What they say agrees with what the action
 * then does, and the action still checks for itself (a client that ignores
 * them is refused as before).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, PASSWORD } from '../support/accountFlows';
import { forgetStepUps } from '../support/authenticator';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { joinTeam, sender, setUpTeam } from '../support/teams';

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
