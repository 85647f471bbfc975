/**
 * SCIM 2.0 provisioning (issue 28, "Must hold"), against the real handlers on
 * DynamoDB Local over HTTP:
 * - the request sequences of Okta's "SCIM 2.0 Spec Test" (the Runscope suite
 *   Okta publishes for app submissions) and Microsoft Entra ID's SCIM
 *   validator, every status and body checked as the RFC and they expect;
 * - a token reaches its own team only, a revoked token is refused at once,
 *   a create over the daily limit invites nobody;
 * - deactivation removes a member as the manager's delete does;
 * - 1,000 people created at 10 at a time: no duplicate, each invited and
 *   e-mailed once.
 */
import { SCHEMA } from '@shared/domain/scim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInvitation, listTeamInvitations, setTeamFields } from '../../lambdas/src/data/accounts';
import { keys } from '../../lambdas/src/data/keys';
import { api, linkToken, PASSWORD, type SignedIn, uniqueEmail } from '../support/accountFlows';
import { type IntegrationStack, postJson, startIntegrationStack } from '../support/integrationStack';
import { setUpTeam } from '../support/teams';

let stack: IntegrationStack;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
});
afterAll(async () => {
  await stack?.stop();
});

type Answer = { status: number; body: any; contentType: string | null; text: string };

async function scim(token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${stack.apiUrl}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/scim+json',
      ...(body !== undefined ? { 'content-type': 'application/scim+json; charset=utf-8' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    contentType: response.headers.get('content-type'),
    text,
  };
}

async function makeToken(manager: SignedIn, name: string): Promise<string> {
  const made = await api(stack.apiUrl, 'POST', '/provisioning/tokens', {
    token: manager.accessToken,
    body: { name },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  expect(made.body.token).toMatch(/^lbscim_[A-Za-z0-9_-]{43}$/);
  return made.body.token as string;
}

function expectScimError(answer: Answer, status: number, scimType?: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.contentType).toMatch(/^application\/scim\+json/);
  expect(answer.body).toMatchObject({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    detail: expect.any(String),
  });
  if (scimType) expect(answer.body.scimType).toBe(scimType);
}

/** The body Okta's spec test sends to create a user (Okta's SCIM 2.0 guide, "Create the user"). */
function oktaUser(email: string) {
  return {
    schemas: [SCHEMA.user],
    userName: email,
    name: { givenName: 'Test', familyName: 'User' },
    emails: [{ primary: true, value: email, type: 'work' }],
    displayName: 'Test User',
    locale: 'en-US',
    externalId: `00u${email.slice(0, 8)}`,
    groups: [],
    password: '1mz050nq',
    active: true,
  };
}

/** The body Entra's validator sends (Microsoft's "Develop a sample SCIM endpoint" request examples). */
function entraUser(email: string, externalId: string) {
  return {
    schemas: [SCHEMA.user, SCHEMA.enterpriseUser],
    externalId,
    userName: email,
    active: true,
    emails: [{ primary: true, type: 'work', value: email }],
    meta: { resourceType: 'User' },
    name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
    roles: [],
    [SCHEMA.enterpriseUser]: { department: 'Engineering' },
  };
}

describe('Okta SCIM 2.0 spec test sequence', () => {
  it('answers every step as Okta expects: list, empty filter, create, get, filter, duplicate 409, deactivate, 404', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const token = await makeToken(manager, 'Okta');

    // 1. Discovery.
    const config = await scim(token, 'GET', '/ServiceProviderConfig');
    expect(config.status, config.text).toBe(200);
    expect(config.contentType).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      schemas: [SCHEMA.serviceProviderConfig],
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
    });
    const types = await scim(token, 'GET', '/ResourceTypes');
    expect(types.status).toBe(200);
    expect(types.body.Resources[0]).toMatchObject({ id: 'User', endpoint: '/Users', schema: SCHEMA.user });
    const schemas = await scim(token, 'GET', '/Schemas');
    expect(schemas.status).toBe(200);
    expect(schemas.body.Resources.map((s: { id: string }) => s.id)).toEqual([
      SCHEMA.user,
      SCHEMA.enterpriseUser,
    ]);

    // 2. "Required Test: Test Users endpoint": GET /Users?count=1&startIndex=1.
    const first = await scim(token, 'GET', '/Users?count=1&startIndex=1');
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      schemas: [SCHEMA.listResponse],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });

    // 3. "Get Users/{{id}}" for a random userName: an empty ListResponse, not a 404.
    const email = uniqueEmail('okta');
    const none = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ schemas: [SCHEMA.listResponse], totalResults: 0, Resources: [] });

    // 4. "Create Okta user with realistic values": 201 with an id, as sent.
    const created = await scim(token, 'POST', '/Users', oktaUser(email));
    expect(created.status, created.text).toBe(201);
    expect(created.contentType).toMatch(/^application\/scim\+json/);
    const id = created.body.id as string;
    expect(id).toMatch(/^[0-9A-Z]{26}$/);
    expect(created.body).toMatchObject({
      schemas: [SCHEMA.user],
      id,
      userName: email,
      externalId: oktaUser(email).externalId,
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ value: email, primary: true, type: 'work' }],
      active: true,
      meta: {
        resourceType: 'User',
        location: expect.stringMatching(new RegExp(`/api/scim/v2/Users/${id}$`)),
      },
    });
    // It is an invitation at the team's provisioning budget (the invitation default, $25), e-mailed once.
    expect(await getInvitation(email, true)).toMatchObject({
      teamId,
      budgetCents: 2500,
      managerId: manager.userId,
    });
    const mails = await stack.mailbox.to(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body.text).toContain('/registerEmployee');

    // 5. "Verify that user was created": GET /Users/{id}.
    const got = await scim(token, 'GET', `/Users/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    // 6. "Expect failure when recreating user with same values": 409 uniqueness.
    const again = await scim(token, 'POST', '/Users', oktaUser(email));
    expectScimError(again, 409, 'uniqueness');
    // ...also in another case (userName is case-insensitive), and nobody is e-mailed again.
    expectScimError(await scim(token, 'POST', '/Users', oktaUser(email.toUpperCase())), 409, 'uniqueness');
    expect(await stack.mailbox.to(email)).toHaveLength(1);

    // 7. "Username Case Sensitivity Check": the filter finds them in any case.
    const found = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`,
    );
    expect(found.status).toBe(200);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    const byExternalId = await scim(
      token,
      'GET',
      `/Users?filter=${encodeURIComponent(`externalId eq "${oktaUser(email).externalId}"`)}`,
    );
    expect(byExternalId.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);

    // 8. Okta's deactivation: PATCH replace with a value object.
    const deactivated = await scim(token, 'PATCH', `/Users/${id}`, {
      schemas: [SCHEMA.patchOp],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status, deactivated.text).toBe(200);
    expect(deactivated.body).toMatchObject({ id, active: false, userName: email });
    // Not joined yet: the invitation is withdrawn, and the manager is told.
    expect(await getInvitation(email, true)).toBeUndefined();
    const told = (await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes(email));
    expect(told.map((m) => m.subject)).toEqual([`The invitation of ${email} was withdrawn`]);
    expect((await scim(token, 'GET', `/Users/${id}`)).body.active).toBe(false);

    // 9. "Get a non-existent user": 404 in the RFC's error format.
    const missing = await scim(token, 'GET', '/Users/010000000000000000000000AA');
    expectScimError(missing, 404);
    expectScimError(await scim(token, 'GET', '/Users/not-an-id'), 404);

    // Paging: totalResults counts all, the page is `count` long from `startIndex`.
    await scim(token, 'POST', '/Users', oktaUser(uniqueEmail('okta2')));
    const page = await scim(token, 'GET', '/Users?startIndex=2&count=1');
    expect(page.body).toMatchObject({ totalResults: 2, startIndex: 2, itemsPerPage: 1 });
    // A filter we cannot answer is an error, never everyone.
    expectScimError(
      await scim(token, 'GET', `/Users?filter=${encodeURIComponent('name.familyName co "x"')}`),
      400,
      'invalidFilter',
    );
    // A create without an address is refused in SCIM's words.
    expectScimError(await scim(token, 'POST', '/Users', { schemas: [SCHEMA.user] }), 400, 'invalidValue');
    expectScimError(await scim(token, 'POST', '/Users', { userName: 'not an address' }), 400, 'invalidValue');
  });
});

describe('Microsoft Entra ID SCIM validator sequence', () => {
  it('filters with count, creates, patches with Replace and a path, deactivates with "False", deletes with 204', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const token = await makeToken(manager, 'Microsoft Entra ID');
    // Engineering maps to $60; everyone else gets $30.
    const settings = await api(stack.apiUrl, 'PUT', '/provisioning/settings', {
      token: manager.accessToken,
      body: { defaultBudget: 30, departmentBudgets: [{ department: 'engineering', budget: 60 }] },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    const email = uniqueEmail('entra');
    const externalId = `ext-${email.slice(6, 14)}`;
    const filter = (f: string) => `/Users?filter=${encodeURIComponent(f)}&count=10`;
    const empty = await scim(token, 'GET', filter(`userName eq "${email}"`));
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ totalResults: 0, Resources: [], startIndex: 1, itemsPerPage: 0 });

    const created = await scim(token, 'POST', '/Users', entraUser(email, externalId));
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({
      schemas: [SCHEMA.user, SCHEMA.enterpriseUser],
      externalId,
      userName: email,
      active: true,
      [SCHEMA.enterpriseUser]: { department: 'Engineering' },
    });
    expect(await getInvitation(email, true)).toMatchObject({ teamId, budgetCents: 6000 });

    const byExternal = await scim(token, 'GET', filter(`externalId eq "${externalId}"`));
    expect(byExternal.body.totalResults).toBe(1);
    expect(byExternal.body.Resources[0]).toMatchObject({ id, userName: email });
    const byName = await scim(token, 'GET', filter(`userName eq "${email}"`));
    expect(byName.body.Resources[0].id).toBe(id);

    // Entra: a duplicate create is 409 too.
    expectScimError(await scim(token, 'POST', '/Users', entraUser(email, externalId)), 409, 'uniqueness');
    expectScimError(
      await scim(token, 'POST', '/Users', entraUser(uniqueEmail('other'), externalId)),
      409,
      'uniqueness',
    );

    // Entra's attribute updates: capitalised ops, paths, a filter path on emails.
    const renamed = await scim(token, 'PATCH', `/Users/${id}`, {
      schemas: [SCHEMA.patchOp],
      Operations: [
        { op: 'Replace', path: 'name.givenName', value: 'Ada' },
        { op: 'Add', path: 'name.familyName', value: 'Lovelace' },
        { op: 'Replace', path: `${SCHEMA.enterpriseUser}:department`, value: 'Research' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: email },
      ],
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({
      id,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      active: true,
      [SCHEMA.enterpriseUser]: { department: 'Research' },
    });
    // The invitation's address cannot change under the person.
    expectScimError(
      await scim(token, 'PATCH', `/Users/${id}`, {
        Operations: [{ op: 'Replace', path: 'emails[type eq "work"].value', value: uniqueEmail('moved') }],
      }),
      400,
      'mutability',
    );
    expectScimError(
      await scim(token, 'PATCH', `/Users/${id}`, { Operations: [{ op: 'Jump' }] }),
      400,
      'invalidSyntax',
    );

    // Entra's deactivation: "Replace", a path, and the boolean as a string.
    const off = await scim(token, 'PATCH', `/Users/${id}`, {
      schemas: [SCHEMA.patchOp],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    expect(await getInvitation(email, true)).toBeUndefined();

    // Active again before they joined: invited again (one more e-mail), at the budget they had.
    const on = await scim(token, 'PATCH', `/Users/${id}`, {
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body.active).toBe(true);
    expect(await getInvitation(email, true)).toMatchObject({ teamId, budgetCents: 6000 });
    expect(await stack.mailbox.to(email)).toHaveLength(2);

    // DELETE: 204 with no body, then 404; the invitation is withdrawn.
    const deleted = await scim(token, 'DELETE', `/Users/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectScimError(await scim(token, 'GET', `/Users/${id}`), 404);
    expect(await getInvitation(email, true)).toBeUndefined();
    expect((await scim(token, 'GET', filter(`userName eq "${email}"`))).body.totalResults).toBe(0);
    expectScimError(await scim(token, 'DELETE', `/Users/${id}`), 404);
  });
});

describe('a member who joined, removed by the identity provider', () => {
  it('is removed as the manager’s delete does: card cancelled, manager e-mailed, logged as the token; restorable', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const token = await makeToken(manager, 'Okta');
    const email = uniqueEmail('joiner');
    const created = await scim(token, 'POST', '/Users', oktaUser(email));
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;

    // The person joins through the e-mailed link and verifies: charged, issued a card, funded.
    const registered = await postJson(`${stack.apiUrl}/auth/registerEmployee`, {
      firstName: 'Jo',
      lastName: 'Iner',
      email,
      password: PASSWORD,
      zip: '94110',
      token: await linkToken(stack.mailbox, email, '/registerEmployee'),
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const userId = registered.body.userId as string;
    const verify = await linkToken(stack.mailbox, email, '/verify');
    expect((await postJson(`${stack.apiUrl}/auth/verifyEmail`, { token: verify })).status).toBe(200);
    const member = await stack.getItem(keys.user(userId));
    expect(member).toMatchObject({ teamId, status: 'active', budgetCents: 2500 });
    const cardId = member?.cardId as string;
    expect(cardId).toMatch(/^ic_/);

    // Same SCIM id from invitation to member.
    const same = await scim(token, 'GET', `/Users/${id}`);
    expect(same.body).toMatchObject({ id, userName: email, active: true });

    const off = await scim(token, 'PUT', `/Users/${id}`, { ...oktaUser(email), id, active: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    expect(await stack.getItem(keys.user(userId))).toMatchObject({ status: 'deleted' });
    expect(await stack.getItem(keys.card(cardId))).toMatchObject({ status: 'canceled' });
    const told = (await stack.mailbox.to(manager.email)).filter((m) => m.subject.includes(email));
    expect(told.map((m) => m.subject)).toEqual([`Jo Iner (${email}) was removed from your team`]);
    expect(told[0]?.body.text).toContain('in your team pool');

    // The Activity Log names the token: "Okta → Invited", "Okta → Removed from the team".
    const log = await api(stack.apiUrl, 'GET', '/team/audit?limit=50', { token: manager.accessToken });
    expect(log.status).toBe(200);
    const byOkta = log.body.events.filter((e: { actorName?: string }) => e.actorName === 'Okta');
    expect(byOkta.map((e: { action: string }) => e.action).sort()).toEqual([
      'employee.deleted',
      'employees.invited',
    ]);

    // Made active again before the next billing day, they are restored with a new card
    // (test/integration/scimReactivation.test.ts has the whole of it).
    const back = await scim(token, 'PATCH', `/Users/${id}`, {
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(back.status, back.text).toBe(200);
    expect((await scim(token, 'GET', `/Users/${id}`)).body.active).toBe(true);
    expect(await stack.getItem(keys.user(userId))).toMatchObject({ status: 'active' });
  });
});

describe('tokens', () => {
  it('a token reaches its own team only; a revoked token is refused at once; last use is shown', async () => {
    const a = await setUpTeam(stack);
    const b = await setUpTeam(stack);
    const tokenA = await makeToken(a.manager, 'Okta');
    const tokenB = await makeToken(b.manager, 'Okta');
    const inB = await scim(tokenB, 'POST', '/Users', oktaUser(uniqueEmail('b')));
    expect(inB.status).toBe(201);
    const idB = inB.body.id as string;

    // Team A's token does not see, change or delete team B's person.
    expectScimError(await scim(tokenA, 'GET', `/Users/${idB}`), 404);
    expectScimError(
      await scim(tokenA, 'PATCH', `/Users/${idB}`, {
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
      404,
    );
    expectScimError(await scim(tokenA, 'DELETE', `/Users/${idB}`), 404);
    expect((await scim(tokenA, 'GET', '/Users')).body.totalResults).toBe(0);
    expect((await scim(tokenB, 'GET', `/Users/${idB}`)).body.active).toBe(true);
    // The same address may be created in team A's directory, but is another team's invitation: 409.
    expectScimError(await scim(tokenA, 'POST', '/Users', oktaUser(inB.body.userName)), 409, 'uniqueness');

    // Unknown, malformed and session tokens are refused alike.
    expectScimError(await scim(`lbscim_${'x'.repeat(43)}`, 'GET', '/Users'), 401);
    expectScimError(await scim(a.manager.accessToken, 'GET', '/Users'), 401);
    expectScimError(await scim('', 'GET', '/Users'), 401);

    const screen = await api(stack.apiUrl, 'GET', '/provisioning', { token: a.manager.accessToken });
    expect(screen.status).toBe(200);
    expect(screen.body.baseUrl).toMatch(/\/api\/scim\/v2$/);
    expect(screen.body.tokens).toHaveLength(1);
    const listed = screen.body.tokens[0];
    expect(listed).toMatchObject({ name: 'Okta', hint: tokenA.slice(0, 11), lastUsedAt: expect.any(String) });
    expect(JSON.stringify(screen.body)).not.toContain(tokenA);
    // Only the hash is stored.
    const stored = await stack.getItem(keys.provisioningToken(a.teamId, listed.tokenId));
    expect(JSON.stringify(stored)).not.toContain(tokenA);

    // Revoked: the very next call is refused; the other team's token still works.
    const revoked = await api(stack.apiUrl, 'DELETE', `/provisioning/tokens/${listed.tokenId}`, {
      token: a.manager.accessToken,
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.tokens[0].revokedAt).toEqual(expect.any(String));
    expectScimError(await scim(tokenA, 'GET', '/Users'), 401);
    expectScimError(await scim(tokenA, 'POST', '/Users', oktaUser(uniqueEmail('late'))), 401);
    expect((await scim(tokenB, 'GET', '/Users')).status).toBe(200);
    // Another team's manager cannot revoke it.
    const foreign = await api(stack.apiUrl, 'DELETE', `/provisioning/tokens/${listed.tokenId}`, {
      token: b.manager.accessToken,
    });
    expect(foreign.status).toBe(404);
  });
});

describe('limits', () => {
  it('a create over the daily commitment limit invites nobody (429, Retry-After) and frees the name for later', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const token = await makeToken(manager, 'Okta');
    const settings = await api(stack.apiUrl, 'PUT', '/provisioning/settings', {
      token: manager.accessToken,
      body: { defaultBudget: 100 },
    });
    expect(settings.status).toBe(200);
    // $150 a day: one $100 invitation fits, the second does not.
    await setTeamFields(teamId, { dailyDepositLimitCents: 15_000 });
    const first = await scim(token, 'POST', '/Users', oktaUser(uniqueEmail('fits')));
    expect(first.status, first.text).toBe(201);
    const email = uniqueEmail('over');
    const refused = await scim(token, 'POST', '/Users', oktaUser(email));
    expectScimError(refused, 429);
    expect(refused.body.detail).toBe(
      "This would exceed your team's daily deposit limit of $150.00. $50.00 of it is left today.",
    );
    expect(await getInvitation(email, true)).toBeUndefined();
    expect(await stack.mailbox.to(email)).toEqual([]);
    expect(
      (await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`)).body
        .totalResults,
    ).toBe(0);

    // With room again (the limit raised by operations), the IdP's retry goes through.
    await setTeamFields(teamId, { dailyDepositLimitCents: 100_000 });
    const retried = await scim(token, 'POST', '/Users', oktaUser(email));
    expect(retried.status, retried.text).toBe(201);
    expect(await stack.mailbox.to(email)).toHaveLength(1);
  });
});

describe('1,000 people through SCIM', () => {
  it('at 10 at a time, with duplicates sent alongside: each invited once, e-mailed once, no duplicate', async () => {
    const { manager, teamId } = await setUpTeam(stack);
    const token = await makeToken(manager, 'Okta');
    // 1,000 x $25 is more than the default day: raised by operations, as a big onboarding would be.
    await setTeamFields(teamId, { dailyDepositLimitCents: 1_000 * 2_500 });
    const emails = Array.from(
      { length: 1_000 },
      (_, i) => `bulk-${i}-${teamId.slice(-8).toLowerCase()}@example.com`,
    );
    // Every 20th person is sent twice, as an IdP retrying after a lost answer would.
    const requests = [...emails, ...emails.filter((_, i) => i % 20 === 0)];
    const statuses: Record<string, number[]> = {};
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const email = requests[next++] as string;
        const answer = await scim(token, 'POST', '/Users', oktaUser(email));
        statuses[email] = [...(statuses[email] ?? []), answer.status];
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));

    for (const [i, email] of emails.entries()) {
      const expected = i % 20 === 0 ? [201, 409] : [201];
      expect([...(statuses[email] ?? [])].sort(), email).toEqual(expected);
    }
    const invitations = await listTeamInvitations(teamId);
    expect(invitations).toHaveLength(1_000);
    expect(new Set(invitations.map((i) => i.email))).toEqual(new Set(emails));
    const listed = await scim(token, 'GET', '/Users?startIndex=1&count=200');
    expect(listed.body.totalResults).toBe(1_000);
    expect(listed.body.Resources).toHaveLength(200);
    // Each e-mailed once.
    const mails = (await stack.mailbox.all()).filter((m) =>
      m.destination.to.some((to) => emails.includes(to)),
    );
    expect(mails).toHaveLength(1_000);
    expect(new Set(mails.map((m) => m.destination.to[0])).size).toBe(1_000);
  }, 600_000);
});
