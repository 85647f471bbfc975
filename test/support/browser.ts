/**
 * Debian's Chromium driven by playwright-core. Test tools cannot download
 * browsers here, so the binary is the system one; the flags keep it off the
 * network (local-stack.md).
 */

import { randomInt } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { CLIENT_IP_HEADER } from './integrationStack';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless and quiet: no sandbox (containers), no GPU, nothing fetched from the network. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A browser is one person: its own client address for the API's per-client
 * rate limits (the e2e stack reads it from this header; tests share one
 * machine, and a few dozen sign-ins from 127.0.0.1 would otherwise trip the
 * sign-in limit meant for one person guessing passwords).
 */
function browserClientIp(): string {
  return `172.${16 + randomInt(16)}.${randomInt(256)}.${1 + randomInt(254)}`;
}

/**
 * One Chromium per test worker, started on first use; Playwright ends it with
 * the process. Each launchBrowser() is a new browser context in it: its own
 * cookies, storage and cache, as a separate person's browser, without paying
 * for a Chromium start each time (a test file opens a dozen or more).
 */
let chromiumProcess: Promise<Browser> | undefined;
function sharedChromium(): Promise<Browser> {
  chromiumProcess ??= chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  return chromiumProcess;
}

/** `timezoneId`: the zone the page's clock is in (the machine's when absent), for tests of dates. */
export async function launchBrowser(
  viewport = { width: 1280, height: 900 },
  options: { timezoneId?: string } = {},
) {
  const context: BrowserContext = await (await sharedChromium()).newContext({
    viewport,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    // Every test page asks for reduced motion: the tour, modals and notifications
    // then appear at once, so a test never races an animation.
    reducedMotion: 'reduce',
  });
  // Added below the page's CORS checks (a route, not extraHTTPHeaders, which would
  // be named in every preflight).
  const clientIp = browserClientIp();
  await context.route('**/*', (route) =>
    route.continue({ headers: { ...route.request().headers(), [CLIENT_IP_HEADER]: clientIp } }),
  );
  return {
    context,
    close: async () => {
      await context.close();
    },
  };
}

/**
 * On /dashboard: if the walkthrough tour is due for this person, waits for it
 * and closes it with Escape (which also stores it as seen). Deterministic: the
 * page says whether the tour is due before it shows.
 */
export async function closeTourIfDue(page: Page): Promise<void> {
  const state = await page.locator('[data-walkthrough]').getAttribute('data-walkthrough');
  if (state !== 'due') return;
  const popover = page.locator('.driver-popover');
  await popover.waitFor();
  const stored = page.waitForResponse((r) => r.url().endsWith('/me/walkthrough') && r.ok());
  await page.keyboard.press('Escape');
  await popover.waitFor({ state: 'detached' });
  await stored;
}

/** axe-core's serious and critical findings (WCAG 2.2 AA and best practice), one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        // The check's own words (e.g. the measured contrast) say why, not only where.
        `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(' ')} [${n.any[0]?.message ?? ''}]`).join(', ')}`,
    );
}

/**
 * Signs in through /login as a person would (reduced motion, as the tests
 * assert states rather than animations) and waits for the dashboard.
 */
export async function signInPage(
  context: BrowserContext,
  webUrl: string,
  email: string,
  password: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('Work Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.waitForURL(`${webUrl}/dashboard`);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  return page;
}

/** The page at `width`, once the side menu has finished sliding (away on a phone, in beside the page above). */
export async function settleAtWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.waitForFunction(() => {
    const nav = document.getElementById('app-navbar');
    if (!nav) return true;
    if (window.innerWidth < 768) return nav.getBoundingClientRect().right <= 0;
    const main = document.getElementById('app-main');
    const sliding = [nav, main].some((el) => el?.getAnimations().some((a) => a.playState === 'running'));
    return !sliding && nav.getBoundingClientRect().left >= 0;
  });
}

/**
 * When SCREENSHOT_DIR is set: full-page shots of `page` at 375 and 1280 px
 * (`<name>-375.png`, `<name>-1280.png`), then back to 1280 px. Below the sm
 * breakpoint the console's side menu slides away: the shot waits until it is
 * gone; above it, until it has slid back in and the page beside it has moved
 * over (a shot taken mid-slide shows both cut off at the left).
 */
export async function shootAtWidths(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  for (const width of [375, 1280]) {
    await settleAtWidth(page, width);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Waits until `locator`'s element has focus, e.g. a dialog's opener once the
 * dialog closed (focus returns a task after the close); fails, naming what
 * has focus instead, if it never does.
 */
export async function focusReturnsTo(locator: Locator, what: string): Promise<void> {
  const page = locator.page();
  try {
    await locator.and(page.locator(':focus')).waitFor({ timeout: 10_000 });
  } catch {
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el
        ? `<${el.tagName.toLowerCase()}> ${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 60)}`
        : 'nothing';
    });
    throw new Error(`Focus should be on ${what}, but is on ${focused}`);
  }
}
