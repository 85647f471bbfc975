import { routes } from '@shared/api/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  postJson as postFromAnyone,
  startIntegrationStack,
} from '../support/integrationStack';
import { holdClock, nextWindowStart, releaseClock } from '../support/productClock';

/** Every request in this file comes from one client. */
const ONE_CLIENT = { [CLIENT_IP_HEADER]: '203.0.113.7' };
const postJson = (url: string, body: unknown) => postFromAnyone(url, body, ONE_CLIENT);

// Its own file, so its own table: the counters start at zero for this client.
let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
  // The product's clock stands still at the first moment of the next window: the whole file
  // counts in one window however busy the machine, and nothing waits for the wall clock.
  holdClock(nextWindowStart(routes.joinWaitlist.access.rateLimit.windowSeconds));
});
afterAll(async () => {
  releaseClock();
  await stack?.stop();
});

describe('public form rate limit', () => {
  it('lets the configured number of submissions through per window, then answers 429 with Retry-After', async () => {
    const access = routes.joinWaitlist.access;
    const limit = access.rateLimit.limit;
    for (let i = 0; i < limit; i++) {
      const ok = await postJson(`${stack.apiUrl}/waitlist`, {
        name: `Person ${i}`,
        email: `p${i}@example.com`,
      });
      expect(ok.status).toBe(201);
    }
    const refused = await postJson(`${stack.apiUrl}/waitlist`, {
      name: 'One too many',
      email: 'late@example.com',
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(access.rateLimit.windowSeconds);
    expect(await stack.getItem(keys.lead('late@example.com'))).toBeUndefined();
  });

  it('counts each form separately', async () => {
    const res = await postJson(`${stack.apiUrl}/messages`, {
      name: 'Still',
      email: 'still@example.com',
      message: 'ok',
    });
    expect(res.status).toBe(201);
  });

  it('holds under concurrency: a burst never gets more than the limit through', async () => {
    const limit = routes.sendContactMessage.access.rateLimit.limit;
    const results = await Promise.all(
      Array.from({ length: limit * 2 }, (_, i) =>
        postJson(`${stack.apiUrl}/messages`, {
          name: `Burst ${i}`,
          email: `burst${i}@example.com`,
          message: 'hi',
        }),
      ),
    );
    const accepted = results.filter((r) => r.status === 201).length;
    // One message was already sent in the previous test, in the same window.
    expect(accepted).toBe(limit - 1);
    expect(results.filter((r) => r.status === 429).length).toBe(limit + 1);
  });
});
