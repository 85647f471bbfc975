/**
 * Teams with money, over real HTTP against an integration stack with the
 * Stripe emulator: a manager whose billing is set up with a test card token,
 * and employees who join, are charged, issued a card and funded.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { expect } from 'vitest';
import { createMemberFromInvitation, getInvitation } from '../../lambdas/src/data/accounts';
import { invitationLinkUse, issueInvitationToken } from '../../lambdas/src/data/emailTokens';
import { keys } from '../../lambdas/src/data/keys';
import { api, inviteAndRegisterEmployee, registerManager, type SignedIn } from './accountFlows';
import { type IntegrationStack, type Mailbox, TEST_STRIPE_SECRET_KEY } from './integrationStack';

export const ADDRESS = { address1: '500 Congress Ave', city: 'Austin', state: 'tx', zip: '78701' };

/** The real Stripe SDK pointed at the stack's emulator, to look at what the product did there. */
export function emulatorClient(stack: IntegrationStack): Stripe {
  const url = new URL(stack.stripe?.url as string);
  return new Stripe(TEST_STRIPE_SECRET_KEY, { host: url.hostname, port: url.port, protocol: 'http' });
}

/** A signed-in call; money routes take the Idempotency-Key as the last argument. */
export function sender(stack: IntegrationStack) {
  return (method: string, path: string, token: string, body?: unknown, idempotencyKey?: string) =>
    api(stack.apiUrl, method, path, { token, body, idempotencyKey });
}

/** A verified manager who finished billing setup with `token` (a Stripe test token). */
export async function setUpTeam(stack: IntegrationStack, token = 'tok_visa') {
  const manager = await registerManager(stack.apiUrl, stack.mailbox);
  const res = await sender(stack)(
    'POST',
    '/billing/setup',
    manager.accessToken,
    { businessName: 'Acme Learning LLC', token, billingAddress: ADDRESS },
    `setup-${randomUUID()}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const teamId = res.body.teamId as string;
  const team = await stack.getItem(keys.team(teamId));
  return {
    manager,
    teamId,
    customerId: team?.stripeCustomerId as string,
    cycleDay: Number(team?.cycleDay),
  };
}

/** An invited employee who signs up and verifies; with billing, they are charged, issued a card and funded. */
export async function joinTeam(
  stack: IntegrationStack,
  manager: SignedIn,
  budget: number,
): Promise<SignedIn & { cardId: string }> {
  const employee = await inviteAndRegisterEmployee(stack.apiUrl, manager, budget, { mailbox: stack.mailbox });
  const record = await stack.getItem(keys.user(employee.userId));
  return { ...employee, cardId: record?.cardId as string };
}

/**
 * Over HTTP only, for the browser tests (which cannot read the table): a
 * verified manager who finished billing setup with the emulator's always
 * approving card. `tourSeen` stores the walkthrough as seen, so /dashboard
 * opens without it.
 */
export async function setUpTeamOverApi(
  apiUrl: string,
  mailbox: Mailbox,
  options: { tourSeen?: boolean; businessName?: string } = {},
): Promise<SignedIn> {
  const manager = await registerManager(apiUrl, mailbox);
  const res = await api(apiUrl, 'POST', '/billing/setup', {
    token: manager.accessToken,
    idempotencyKey: `setup-${randomUUID()}`,
    body: {
      businessName: options.businessName ?? 'Acme Learning LLC',
      token: 'tok_visa',
      billingAddress: ADDRESS,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  if (options.tourSeen)
    await api(apiUrl, 'POST', '/me/walkthrough', { token: manager.accessToken, body: {} });
  return manager;
}

/**
 * Over HTTP only: an invited employee who signs up and verifies, so (with the
 * team's billing set up) they are charged, issued a card and funded. Their card
 * id is read from the manager's Employees list, as the screens read it.
 */
export async function joinTeamOverApi(
  apiUrl: string,
  mailbox: Mailbox,
  manager: SignedIn,
  budget: number,
  name: { firstName: string; lastName: string } = { firstName: 'Eddie', lastName: 'Employee' },
): Promise<SignedIn & { cardId: string; name: string }> {
  const employee = await inviteAndRegisterEmployee(apiUrl, manager, budget, { mailbox, ...name });
  const list = await api(apiUrl, 'GET', '/employees', { token: manager.accessToken });
  const row = list.body.employees.find((e: { userId: string }) => e.userId === employee.userId);
  expect(row?.cardId, JSON.stringify(row)).toMatch(/^ic_/);
  return { ...employee, cardId: row.cardId as string, name: `${name.firstName} ${name.lastName}` };
}

/**
 * The member as sign-up creates them from their invitation, with nothing after
 * it: their activation (the joining charge and its credit) is what a test then
 * runs, or cuts off. Returns the new member's user id.
 */
export async function createInvitedMember(
  email: string,
  teamId: string,
  budgetCents: number,
  { firstName = 'Ada', lastName = 'Byron', createdAt = new Date() } = {} as {
    firstName?: string;
    lastName?: string;
    createdAt?: Date;
  },
): Promise<string> {
  const invitation = await getInvitation(email);
  if (!invitation) throw new Error(`no invitation for ${email}`);
  const userId = `emp-${randomUUID()}`;
  // The invitation's link, used in the same transaction, as sign-up does.
  const token = await issueInvitationToken(invitation, createdAt);
  await createMemberFromInvitation(
    invitation,
    {
      userId,
      email,
      firstName,
      lastName,
      role: 'employee',
      teamId,
      status: 'active',
      emailVerified: true,
      finishedWalkthrough: false,
      createdAt: createdAt.toISOString(),
      budgetCents,
      nextBudgetCents: budgetCents,
    },
    invitationLinkUse(token, createdAt),
  );
  return userId;
}
