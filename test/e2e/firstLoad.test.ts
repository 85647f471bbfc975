/**
 * A signed-in person's first load of a signed-in address (issue 25, "the
 * signed-in app's first screen fast"): the page's code is asked for at once,
 * beside the session's restoration, not after it. Before, the render made a
 * chain of it - the frame's code, the session's code, POST /auth/refresh,
 * GET /me, and only then the page's code - and the first screen took 3.5 to
 * 4.8 s (`npm run bench:web -- --console` prints the figures; no timing is
 * asserted here, only the order of the requests, which is the structure).
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PASSWORD } from '../support/accountFlows';
import { launchBrowser, shootAtWidths, signInPage } from '../support/browser';
import { Mailbox } from '../support/integrationStack';
import { setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

describe('a first load of a signed-in page', () => {
  it("asks for the page's code before GET /me, and the page still shows", async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    browser = await launchBrowser();
    // Signing in lands on /dashboard: the Activity Log's code has not been loaded in this browser.
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    const requested: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/ActivityPage-') || pathname === '/api/me') requested.push(pathname);
    });

    await page.goto(`${env.webUrl}/dashboard/activity`);
    await page.getByRole('heading', { name: 'Activity Log', level: 1 }).waitFor();
    await shootAtWidths(page, 'first-load-activity');

    const pageCode = requested.findIndex((path) => path.startsWith('/assets/ActivityPage-'));
    const me = requested.indexOf('/api/me');
    expect(pageCode, requested.join(', ')).toBeGreaterThanOrEqual(0);
    expect(me, requested.join(', ')).toBeGreaterThanOrEqual(0);
    expect(pageCode, `the page's code came after GET /me: ${requested.join(', ')}`).toBeLessThan(me);
  });
});
