/**
 * A signed-in person's first load of a signed-in address (issue 25, "the
 * signed-in app's first screen fast"). `npm run bench:web -- --console`
 * prints the figures; no timing is asserted here, only the structure:
 *
 * - the page's code is asked for at once, beside the session's restoration,
 *   not after it (before, the render made a chain of it: the frame's code, the
 *   session's code, POST /auth/refresh, GET /me, and only then the page's code);
 * - the session is restored in one round trip: POST /auth/refresh answers
 *   GET /me's question too, so no GET /me follows it;
 * - the page's heading and lead line are painted with the app's first code,
 *   before the frame's code (Mantine) has arrived, and again, in the same place
 *   and size, by the frame while POST /auth/refresh is still unanswered (both
 *   held by request interception, so it is deterministic), from the role stored
 *   at sign-in; the page itself still waits for the session (the route guard's
 *   own tests: routeGuard.test.ts).
 */
import type { Locator, Route } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { pageHeadings } from '../../web/src/content/pageHeadings';
import { PASSWORD } from '../support/accountFlows';
import { launchBrowser, shootAtWidths, signInPage } from '../support/browser';
import { Mailbox } from '../support/integrationStack';
import { setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

/**
 * Where an element's text is painted (the text's own box, as the largest-paint
 * measure takes it, not the block's), with its font.
 */
function textBox(locator: Locator) {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const { x, y, width, height } = range.getBoundingClientRect();
    const style = getComputedStyle(element);
    return { x, y, width, height, font: `${style.fontWeight} ${style.fontSize} ${style.fontFamily}` };
  });
}

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

describe('a first load of a signed-in page', () => {
  it("asks for the page's code before the session is restored, and restores it without GET /me", async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    browser = await launchBrowser();
    // Signing in lands on /dashboard: the Activity Log's code has not been loaded in this browser.
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    const events: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/assets/ActivityPage-')) events.push('page code asked for');
      if (pathname === '/api/me') events.push('GET /me');
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/auth/refresh') events.push('refresh answered');
    });

    await page.goto(`${env.webUrl}/dashboard/activity`);
    await page.getByRole('heading', { name: 'Activity Log', level: 1 }).waitFor();
    // The page's own data came after the session: its table's heading is there once it has rendered.
    await shootAtWidths(page, 'first-load-activity');

    expect(events, events.join(', ')).toEqual(['page code asked for', 'refresh answered']);
  });

  it("paints the page's heading before the frame's code and the session, where the frame paints it again", async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);

    // Hold the frame's code (Mantine) and the session's restoration, each until released.
    const hold = async (pattern: string) => {
      let asked = false;
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(pattern, async (route: Route) => {
        asked = true;
        await released;
        await route.continue();
      });
      return { asked: () => asked, release: () => release() };
    };
    const frameCode = await hold('**/assets/SignedInLayout-*.js');
    const refresh = await hold('**/api/auth/refresh');
    const { title, lead } = pageHeadings.activity;
    const boxes: Record<
      string,
      Array<{ x: number; y: number; width: number; height: number; font: string }>
    > = {};

    await page.goto(`${env.webUrl}/dashboard/activity`);
    // 1. The app's first code alone: the frame's outline, the heading and the lead line.
    const skeleton = page.locator('[data-frame-skeleton]');
    await skeleton.getByText(title, { exact: true }).waitFor();
    await expect.poll(() => frameCode.asked()).toBe(true);
    boxes.skeleton = [
      await textBox(skeleton.getByText(title, { exact: true })),
      await textBox(skeleton.getByText(lead, { exact: true })),
    ];
    // Assistive technology hears "Loading…", not a heading the page does not have yet.
    await expect(page.getByRole('heading', { name: title, level: 1 }).count()).resolves.toBe(0);
    await expect(page.getByRole('status').filter({ hasText: 'Loading' }).count()).resolves.toBe(1);
    await shootAtWidths(page, 'first-load-activity-skeleton');

    // 2. The frame (header, the manager's menu from the role stored at sign-in), the session still unrestored.
    frameCode.release();
    const pending = page.locator('[data-pending-page]');
    await pending.getByText(title, { exact: true }).waitFor();
    await expect.poll(() => refresh.asked()).toBe(true);
    boxes.frame = [
      await textBox(pending.getByText(title, { exact: true })),
      await textBox(pending.getByText(lead, { exact: true })),
    ];
    await expect(page.getByRole('link', { name: 'Activity Log' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('banner').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { name: title, level: 1 }).count()).resolves.toBe(0);
    await shootAtWidths(page, 'first-load-activity-pending');

    // The outline painted the heading and lead where, and as large as, the frame paints them.
    expect(boxes.skeleton).toEqual(boxes.frame);

    // 3. The session restored: the page itself.
    refresh.release();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await expect(pending.count()).resolves.toBe(0);
    await shootAtWidths(page, 'first-load-activity-loaded');
  });
});
