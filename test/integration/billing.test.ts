/**
 * The manager's billing on the server (manager console issue, items 2 and 6):
 * the setup wizard's finish, adding a card, setting the primary card and
 * deleting one, with the rules the screens rely on. Real handlers, DynamoDB
 * Local and the Stripe emulator; card tokens are made the way the browser
 * makes them (POST /v1/tokens with the publishable key), through the real SDK.
 */
import { randomUUID } from 'node:crypto';
import { routes } from '@shared/api/routes';
import { CARD_FORM_MAX } from '@shared/schemas/billing';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { registerManager, uniqueEmail } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { holdClock, releaseClock } from '../support/productClock';
import { ADDRESS, emulatorClient, sender, setUpTeam } from '../support/teams';

let stack: IntegrationStack;
let send: ReturnType<typeof sender>;
let browserStripe: Stripe;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  send = sender(stack);
  // The browser's side: only the publishable key, which can make tokens and nothing else.
  const url = new URL(stack.stripe?.url as string);
  browserStripe = new Stripe('pk_test_integration', { host: url.hostname, port: url.port, protocol: 'http' });
});

afterAll(async () => {
  await stack?.stop();
});

const YEAR = new Date().getUTCFullYear() + 3;

/** A single-use token for `number`, as the card form's tokenizer makes it. */
async function tokenFor(number: string): Promise<string> {
  const token = await browserStripe.tokens.create({
    card: {
      number,
      exp_month: '12',
      exp_year: String(YEAR),
      cvc: '123',
      name: 'Mary Manager',
      address_line1: ADDRESS.address1,
      address_city: ADDRESS.city,
      address_state: 'TX',
      address_zip: ADDRESS.zip,
      address_country: 'US',
    },
  });
  return token.id;
}

function setupBody(token: string, extra: Record<string, unknown> = {}) {
  return { businessName: 'Acme Learning LLC', token, billingAddress: ADDRESS, ...extra };
}

async function teamStatus(accessToken: string): Promise<string> {
  return (await send('GET', '/me', accessToken)).body.teamStatus;
}

describe('finishing setup (POST /billing/setup)', () => {
  it('refuses a card number in place of a token: card numbers never reach our API', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const res = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      setupBody('4242424242424242'),
      `setup-${randomUUID()}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.fields.token).toBe('Credit card number is not valid');
  });

  it('refuses an address line over its limit, naming the field in the message and by path', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const res = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      setupBody('tok_visa', {
        billingAddress: { ...ADDRESS, address1: 'A'.repeat(CARD_FORM_MAX.address1 + 1) },
      }),
      `setup-${randomUUID()}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Address must be at most 200 characters',
      fields: { 'billingAddress.address1': 'Address must be at most 200 characters' },
    });
    expect(await teamStatus(manager.accessToken)).toBe('setup');
  });

  it('after a declined card, a retry with a new card sets the team up (the token is in the idempotency key)', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const declined = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      setupBody(await tokenFor('4000000000000002')),
      `setup-${randomUUID()}`,
    );
    expect(declined.status, JSON.stringify(declined.body)).toBe(422);
    expect(declined.body.error.message).toMatch(/declined/i);
    expect(await teamStatus(manager.accessToken)).toBe('setup');

    const good = await tokenFor('4242424242424242');
    const key = `setup-${good}`;
    const res = await send('POST', '/billing/setup', manager.accessToken, setupBody(good), key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', invited: 0, funded: 0 });
    expect(await teamStatus(manager.accessToken)).toBe('active');

    const team = await stack.getItem(keys.team(res.body.teamId));
    expect(team).toMatchObject({ businessName: 'Acme Learning LLC', billingAddress: { state: 'TX' } });
    const customer = await emulatorClient(stack).customers.retrieve(team?.stripeCustomerId as string);
    expect((customer as Stripe.Customer).name).toBe('Acme Learning LLC');

    // The same request again (a lost answer) gets the same answer; no second customer.
    const replay = await send('POST', '/billing/setup', manager.accessToken, setupBody(good), key);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(res.body);
    const cards = await send('GET', '/billing/customer', manager.accessToken);
    expect(cards.body.cards.map((c: { last4: string }) => c.last4)).toEqual(['4242']);

    // A new setup request once set up is refused: more cards go through the Credit Card page.
    const again = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      setupBody(await tokenFor('5555555555554444')),
      `setup-${randomUUID()}`,
    );
    expect(again.status).toBe(409);
  });

  it('sends the invitations given with it, and none without', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const emails = [uniqueEmail('one'), uniqueEmail('two')];
    const res = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      setupBody(await tokenFor('4242424242424242'), {
        invite: { emails: ` ${emails[0]}, ,${emails[1]},`, budget: '$40' },
      }),
      `setup-${randomUUID()}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invited).toBe(2);
    const roster = await send('GET', '/employees', manager.accessToken);
    const invited = JSON.stringify(roster.body);
    for (const email of emails) expect(invited).toContain(email);
  });

  it('needs a verified e-mail address', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox, { verify: false });
    const res = await send(
      'POST',
      '/billing/setup',
      manager.accessToken,
      setupBody('tok_visa'),
      `setup-${randomUUID()}`,
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('EMAIL_NOT_VERIFIED');
  });
});

describe('cards on file', () => {
  it('adds, sets primary and deletes, keeping at least one card', async () => {
    const { manager } = await setUpTeam(stack);
    const start = await send('GET', '/billing/customer', manager.accessToken);
    expect(start.status).toBe(200);
    expect(start.body.cards).toHaveLength(1);
    const first = start.body.cards[0];
    expect(start.body.defaultCardId).toBe(first.id);

    // Only card: it cannot be deleted.
    const lonely = await send('DELETE', `/billing/cards/${first.id}`, manager.accessToken);
    expect(lonely.status).toBe(422);
    expect(lonely.body.error.code).toBe('RULE_VIOLATED');

    // A declined card is not added, and says why.
    const declined = await send(
      'POST',
      '/billing/cards',
      manager.accessToken,
      { token: await tokenFor('4000000000009995') },
      `card-${randomUUID()}`,
    );
    expect(declined.status).toBe(422);
    expect(declined.body.error.message).toMatch(/insufficient funds/i);

    const token = await tokenFor('5555555555554444');
    const added = await send('POST', '/billing/cards', manager.accessToken, { token }, `card-${token}`);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.cards).toHaveLength(2);
    const second = added.body.cards.find((c: { last4: string }) => c.last4 === '4444');
    expect(second).toMatchObject({ brand: 'MasterCard', expMonth: 12, expYear: YEAR });
    // A team in good standing keeps its primary when a card is added.
    expect(added.body.defaultCardId).toBe(first.id);
    // The same request again adds nothing.
    const replay = await send('POST', '/billing/cards', manager.accessToken, { token }, `card-${token}`);
    expect(replay.body.cards).toHaveLength(2);

    const primary = await send('PUT', '/billing/customer', manager.accessToken, { defaultCardId: second.id });
    expect(primary.status).toBe(200);
    expect(primary.body.defaultCardId).toBe(second.id);

    const unknown = await send('PUT', '/billing/customer', manager.accessToken, {
      defaultCardId: 'card_nope',
    });
    expect(unknown.status).toBe(404);

    const deleted = await send('DELETE', `/billing/cards/${first.id}`, manager.accessToken);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body.cards.map((c: { id: string }) => c.id)).toEqual([second.id]);
    expect(deleted.body.defaultCardId).toBe(second.id);

    // The activity log says which card each change was about: brand and last 4, no more.
    const log = await send('GET', '/team/audit?kind=billing&limit=50', manager.accessToken);
    const card = (action: string) =>
      (log.body.events as { action: string; before?: object; after?: object }[]).find(
        (e) => e.action === action,
      );
    expect(card('billing.defaultCard')?.after).toEqual({
      cardId: second.id,
      brand: 'MasterCard',
      last4: '4444',
    });
    expect(card('billing.cardDeleted')?.before).toEqual({ cardId: first.id, brand: 'Visa', last4: '4242' });
  });

  it("never touches another team's card", async () => {
    const a = await setUpTeam(stack);
    const b = await setUpTeam(stack);
    const token = await tokenFor('4242424242424242');
    await send('POST', '/billing/cards', b.manager.accessToken, { token }, `card-${token}`);
    const bCards = (await send('GET', '/billing/customer', b.manager.accessToken)).body.cards;
    const target = bCards[0].id as string;

    expect((await send('DELETE', `/billing/cards/${target}`, a.manager.accessToken)).status).toBe(404);
    expect(
      (await send('PUT', '/billing/customer', a.manager.accessToken, { defaultCardId: target })).status,
    ).toBe(404);
    expect((await send('GET', '/billing/customer', b.manager.accessToken)).body.cards).toHaveLength(2);
  });

  it('before setup, the card routes say to finish it first', async () => {
    const manager = await registerManager(stack.apiUrl, stack.mailbox);
    const res = await send('GET', '/billing/customer', manager.accessToken);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Finish setting up your account first.');
  });
});

describe('attack 10: card testing', () => {
  it('stops one manager trying card after card, at setup and on the Credit Card page, with the rate-limit words', async () => {
    // One window for every try, however long a busy machine takes over them.
    holdClock(new Date());
    onTestFinished(releaseClock);
    const declinedCard = '4000000000009995';

    const newcomer = await registerManager(stack.apiUrl, stack.mailbox);
    const setupLimit = routes.finalizeSetup.access.rateLimit?.limit ?? 0;
    for (let i = 0; i < setupLimit; i++) {
      const tried = await send(
        'POST',
        '/billing/setup',
        newcomer.accessToken,
        setupBody(await tokenFor(declinedCard)),
        `setup-${randomUUID()}`,
      );
      expect(tried.status).toBe(422);
    }
    const stopped = await send(
      'POST',
      '/billing/setup',
      newcomer.accessToken,
      setupBody(await tokenFor('4242424242424242')),
      `setup-${randomUUID()}`,
    );
    expect(stopped.status).toBe(429);
    expect(stopped.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many requests. Please try again later.',
    });
    expect(await teamStatus(newcomer.accessToken)).not.toBe('active');

    const { manager } = await setUpTeam(stack);
    const cardLimit = routes.addCard.access.rateLimit?.limit ?? 0;
    for (let i = 0; i < cardLimit; i++) {
      const tried = await send(
        'POST',
        '/billing/cards',
        manager.accessToken,
        { token: await tokenFor(declinedCard) },
        `card-${randomUUID()}`,
      );
      expect(tried.status).toBe(422);
    }
    const refused = await send(
      'POST',
      '/billing/cards',
      manager.accessToken,
      { token: await tokenFor('5555555555554444') },
      `card-${randomUUID()}`,
    );
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    // Nothing reached Stripe: the team still has only its first card.
    const cards = (await send('GET', '/billing/customer', manager.accessToken)).body.cards;
    expect(cards.map((c: { last4: string }) => c.last4)).toEqual(['4242']);
  });
});
