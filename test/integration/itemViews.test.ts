/**
 * Shop analytics on DynamoDB Local: POST /catalogue/{itemId}/views stores who
 * (user, team, role), which item and when, with a TTL one year on; an item not
 * in the catalogue is refused and nothing is stored; a malformed id is a 400;
 * the per-user rate limit holds.
 */

import { routes } from '@shared/api/routes';
import type { CatalogueItem } from '@shared/schemas/catalogue';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { listTeamItemViews } from '../../lambdas/src/data/itemViews';
import { keys } from '../../lambdas/src/data/keys';
import { importCatalogue } from '../../lambdas/src/services/shop';
import { api, inviteAndRegisterEmployee, registerManager, type SignedIn } from '../support/accountFlows';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';
import { holdClock, nextWindowStart, releaseClock } from '../support/productClock';

const YEAR_SECONDS = 365 * 24 * 3600;

const book: CatalogueItem = {
  id: 'views-test-book',
  name: 'Views Test Book',
  author: 'A. Writer',
  category: 'Execution',
  trait: 'Organization',
  media: 'book',
  priceCents: 1500,
  rating: 4.1,
  totalReviews: 12,
  year: 2021,
  affiliateLinks: { amazon: 'https://www.amazon.com/s?k=views' },
};

let stack: IntegrationStack;
let manager: SignedIn;
let employee: SignedIn;

beforeAll(async () => {
  stack = await startIntegrationStack();
  await importCatalogue([book]);
  manager = await registerManager(stack.apiUrl, stack.mailbox);
  employee = await inviteAndRegisterEmployee(stack.apiUrl, manager);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

async function me(user: SignedIn) {
  return (await api(stack.apiUrl, 'GET', '/me', { token: user.accessToken })).body as {
    userId: string;
    teamId: string;
  };
}

describe('POST /catalogue/{itemId}/views', () => {
  it('stores who, which item and when, kept for a year', async () => {
    const before = Date.now();
    const res = await api(stack.apiUrl, 'POST', `/catalogue/${book.id}/views`, {
      token: employee.accessToken,
      body: {},
    });
    const after = Date.now();
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const viewedAt = Date.parse(res.body.viewedAt);
    expect(viewedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(viewedAt).toBeLessThanOrEqual(after + 1000);

    const { userId, teamId } = await me(employee);
    const views = await listTeamItemViews(teamId, res.body.viewedAt);
    expect(views).toHaveLength(1);
    const view = views[0] as unknown as Record<string, unknown>;
    expect(view).toMatchObject({
      entity: 'ItemView',
      userId,
      teamId,
      role: 'employee',
      itemId: book.id,
      viewedAt: res.body.viewedAt,
    });
    // The table's TTL attribute, one year after the view (epoch seconds).
    expect(view.expiresAt).toBe(Math.floor(viewedAt / 1000) + YEAR_SECONDS);
    const stored = await stack.getItem(keys.itemView(teamId, res.body.viewedAt, view.viewId as string));
    expect(stored?.expiresAt).toBe(view.expiresAt);
  });

  it('counts every opening, a manager too, in the same team month', async () => {
    const { teamId, userId } = await me(manager);
    const first = await api(stack.apiUrl, 'POST', `/catalogue/${book.id}/views`, {
      token: manager.accessToken,
      body: {},
    });
    const second = await api(stack.apiUrl, 'POST', `/catalogue/${book.id}/views`, {
      token: manager.accessToken,
      body: {},
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    const views = await listTeamItemViews(teamId, second.body.viewedAt);
    const managers = views.filter((v) => v.userId === userId);
    expect(managers).toHaveLength(2);
    expect(managers.every((v) => v.role === 'manager')).toBe(true);
  });

  it('refuses an item that is not in the catalogue and stores nothing', async () => {
    const { teamId } = await me(employee);
    const now = new Date().toISOString();
    const before = (await listTeamItemViews(teamId, now)).length;
    const res = await api(stack.apiUrl, 'POST', '/catalogue/no-such-item/views', {
      token: employee.accessToken,
      body: {},
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await listTeamItemViews(teamId, now)).length).toBe(before);
  });

  it('refuses a malformed id, and visitors', async () => {
    const bad = await api(stack.apiUrl, 'POST', '/catalogue/Not%20An%20Id/views', {
      token: employee.accessToken,
      body: {},
    });
    expect(bad.status).toBe(400);
    const visitor = await api(stack.apiUrl, 'POST', `/catalogue/${book.id}/views`, { body: {} });
    expect(visitor.status).toBe(401);
  });

  it('rate limits one person, not everyone', async () => {
    const rule = routes.recordItemView.access.rateLimit;
    const limit = rule?.limit ?? 0;
    const heavy = await inviteAndRegisterEmployee(stack.apiUrl, manager);
    // Every view below counts in one window, however long a busy machine takes over them.
    holdClock(nextWindowStart(rule?.windowSeconds ?? 1));
    onTestFinished(releaseClock);
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const res = await api(stack.apiUrl, 'POST', `/catalogue/${book.id}/views`, {
        token: heavy.accessToken,
        body: {},
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, limit).every((s) => s === 201)).toBe(true);
    expect(statuses[limit]).toBe(429);
    const other = await api(stack.apiUrl, 'POST', `/catalogue/${book.id}/views`, {
      token: employee.accessToken,
      body: {},
    });
    expect(other.status).toBe(201);
  });
});
