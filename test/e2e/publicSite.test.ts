/**
 * The public site in a real browser, through the whole local stack: every
 * marketing page is pre-rendered HTML that reads without JavaScript, has its
 * own title, description and Open Graph tags, ships only the small public
 * script, passes axe-core (no serious or critical violation, WCAG 2.2 AA tags)
 * at 1280 and 375 px, and its header, menus and accordion work with the
 * keyboard alone.
 */
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SESSION_HINT_KEY } from '../../web/src/auth/sessionHint';
import { carouselSkills } from '../../web/src/content/skills';
import { TERMS_SECTION_IDS } from '../../web/src/content/terms';
import { launchBrowser, seriousViolations } from '../support/browser';

const env = inject('e2e');

/** The pre-rendered pages, with their <h1>. */
const staticPages = [
  { path: '/', h1: 'A learning budget for every employee, on a card they can use today' },
  { path: '/pricing', h1: 'Pricing' },
  { path: '/faqs', h1: 'FAQs' },
  { path: '/howitworks', h1: 'How It Works' },
  { path: '/howitworks/setup', h1: 'Setup' },
  { path: '/howitworks/shop', h1: 'Shop' },
  { path: '/howitworks/upload', h1: 'Upload a receipt' },
  { path: '/terms', h1: 'Terms of Use' },
  { path: '/privacy', h1: 'Privacy Policy' },
] as const;

/** Public pages the SPA renders (forms need React), checked with axe too. */
const spaPages = [
  { path: '/subscribe', h1: "We're Launching Soon!" },
  { path: '/support', h1: 'Contact Us' },
] as const;

/**
 * zod 4 probes once whether `new Function` is allowed (to pick its fast path);
 * the CSP refuses, zod falls back, and the browser reports the refusal. It
 * happens on the SPA's form pages only, never on the pre-rendered ones; see
 * docs/public-site.md ("Known issues") for the one-line fix in shared/.
 */
const ZOD_EVAL_PROBE = 'console: CSP violation: script-src eval';
const spaProblems = (problems: string[]) => problems.filter((p) => p !== ZOD_EVAL_PROBE);

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const LANDING_JS_BUDGET_GZIP = 60 * 1024;

let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  browser = await launchBrowser(DESKTOP);
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh tab that records CSP violations and console errors from the first script on. */
async function newPage(viewport = DESKTOP): Promise<Page & { problems: string[] }> {
  const page = (await browser.context.newPage()) as Page & { problems: string[] };
  page.problems = [];
  await page.setViewportSize(viewport);
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return page;
}

async function headerState(page: Page) {
  return page.locator('header.pub-header').evaluate((header) => ({
    scrolled: header.classList.contains('pub-header--scrolled'),
    background: getComputedStyle(header).backgroundColor,
  }));
}

/**
 * Scrolls to `y` and returns once the page has handled that scroll: our own
 * listener is added after the header's, so when it runs the header's has run.
 */
async function scrollAndSettle(page: Page, y: number) {
  await page.evaluate(
    (top) =>
      new Promise<void>((resolve) => {
        window.addEventListener('scroll', () => resolve(), { once: true });
        window.scrollTo(0, top);
      }),
    y,
  );
}

describe('pre-rendered public pages', () => {
  it.each(staticPages)(
    '$path is served as finished HTML with its own title, description and Open Graph tags',
    async ({ path, h1 }) => {
      const response = await fetch(`${env.webUrl}${path}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('content-encoding')).toBe('br');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await response.text();
      expect(html).toContain(`data-page="${path}"`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${h1.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`));
      expect(html).toMatch(/<title>[^<]+\| Learning Budget<\/title>|<title>Learning Budget: [^<]+<\/title>/);
      expect(html).toMatch(/<meta name="description" content="[^"]{70,}" \/>/);
      for (const property of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type']) {
        expect(html).toContain(`<meta property="${property}"`);
      }
      expect(html).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+" \/>/);
      // One small script of its own, no inline script, nothing of the SPA.
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/type="module"[^>]*src="\/assets\/public-[\w-]+\.js"/);
      expect(html).not.toMatch(/assets\/(react|mantine|zod|index)-/);
    },
  );

  it('each page has a different title and description', async () => {
    const heads = await Promise.all(
      staticPages.map(async ({ path }) => {
        const html = await (await fetch(`${env.webUrl}${path}`)).text();
        return {
          title: /<title>([^<]+)<\/title>/.exec(html)?.[1],
          description: /<meta name="description" content="([^"]+)"/.exec(html)?.[1],
        };
      }),
    );
    expect(new Set(heads.map((h) => h.title)).size).toBe(staticPages.length);
    expect(new Set(heads.map((h) => h.description)).size).toBe(staticPages.length);
  });

  it('serves sitemap.xml and robots.txt that list the pages', async () => {
    const sitemap = await fetch(`${env.webUrl}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toContain('xml');
    const xml = await sitemap.text();
    for (const { path } of staticPages) expect(xml).toMatch(new RegExp(`<loc>https?://[^<]+${path}</loc>`));
    const robots = await fetch(`${env.webUrl}/robots.txt`);
    const text = await robots.text();
    expect(text).toContain('Disallow: /dashboard');
    expect(text).toMatch(/Sitemap: https?:\/\/\S+\/sitemap\.xml/);
  });

  it.each(staticPages)('$path reads with JavaScript off, at 375 px too', async ({ path, h1 }) => {
    const page = await newPage(PHONE);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
    await page.goto(`${env.webUrl}${path}`);
    await expect(page.getByRole('heading', { level: 1, name: h1 }).isVisible()).resolves.toBe(true);
    // Without the script the page links are in plain view, not behind a menu button.
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(main.getByRole('link', { name: 'Pricing' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Menu' }).count()).resolves.toBe(0);
    await expect(
      page
        .getByRole('navigation', { name: 'Footer' })
        .getByRole('link', { name: 'Terms of Use' })
        .isVisible(),
    ).resolves.toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.close();
  });

  it('the landing page loads under 60 KB of JavaScript (gzip), none of it React', async () => {
    const page = await newPage();
    const scripts: string[] = [];
    let gzipBytes = 0;
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts.push(new URL(response.url()).pathname);
      gzipBytes += gzipSync(await response.body(), { level: 9 }).length;
    });
    await page.goto(`${env.webUrl}/`, { waitUntil: 'networkidle' });
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toMatch(/^\/assets\/public-[\w-]+\.js$/);
    expect(gzipBytes).toBeLessThanOrEqual(LANDING_JS_BUDGET_GZIP);
    expect(page.problems).toEqual([]);
    await page.close();
  });

  it('has every terms anchor of spec §2, and an anchor link lands on its section', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/terms#redemptionfees`);
    for (const id of TERMS_SECTION_IDS)
      await expect(page.locator(`section[id="${id}"]`).count()).resolves.toBe(1);
    await expect(page.locator('#redemptionfees h2').isVisible()).resolves.toBe(true);
    const top = await page.locator('#redemptionfees').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0); // below the sticky header, not under it
    expect(top).toBeLessThan(200);
    await page.close();
  });
});

describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  it.each([...staticPages, ...spaPages])(
    '$path has no serious or critical violation at 1280 and 375 px',
    async ({ path, h1 }) => {
      const page = await newPage();
      await page.goto(`${env.webUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: h1 }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize(PHONE);
      expect(await seriousViolations(page)).toEqual([]);
      const isSpa = spaPages.some((spa) => spa.path === path);
      expect(isSpa ? spaProblems(page.problems) : page.problems).toEqual([]);
      await page.close();
    },
  );

  it('stays clean with the phone menu and an FAQ answer open', async () => {
    const page = await newPage(PHONE);
    await page.goto(`${env.webUrl}/faqs`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByText('Can I get unspent money back?').click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('header (spec §2)', () => {
  it('turns white once the page is scrolled more than 10 px', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/`);
    await page.waitForFunction(() => document.querySelector('.pub-header--enhanced'));
    expect((await headerState(page)).scrolled).toBe(false);
    await scrollAndSettle(page, 10);
    expect((await headerState(page)).scrolled).toBe(false);
    await scrollAndSettle(page, 11);
    expect((await headerState(page)).scrolled).toBe(true);
    // The colour eases in (0.2 s): wait for where it ends, not for a time.
    await page.waitForFunction(
      () =>
        getComputedStyle(document.querySelector('header.pub-header') as Element).backgroundColor ===
        'rgb(255, 255, 255)',
      undefined,
      { polling: 'raf' },
    );
    expect(await headerState(page)).toEqual({ scrolled: true, background: 'rgb(255, 255, 255)' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => !document.querySelector('.pub-header--scrolled'));
    await page.close();
  });

  it('offers Sign In and Sign Up to visitors', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/pricing`);
    const account = page.getByRole('navigation', { name: 'Account' });
    await expect(account.getByRole('link', { name: 'Sign Up' }).getAttribute('href')).resolves.toBe(
      '/register',
    );
    await expect(account.getByRole('link', { name: 'Sign In' }).getAttribute('href')).resolves.toBe('/login');
    await expect(
      page
        .getByRole('banner')
        .getByRole('link', { name: /Go to Dashboard|Go Shopping/ })
        .count(),
    ).resolves.toBe(0);
    await page.close();
  });

  it.each([
    ['manager', 'Go to Dashboard', '/dashboard'],
    ['employee', 'Go Shopping', '/shop'],
  ])('shows a signed-in %s "%s" instead of Sign Up / Sign In', async (role, label, href) => {
    const page = await newPage();
    await page.addInitScript(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [SESSION_HINT_KEY, JSON.stringify({ role })],
    );
    try {
      for (const [path, viewport] of [
        ['/', DESKTOP],
        ['/faqs', PHONE],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto(`${env.webUrl}${path}`);
        const header = page.getByRole('banner');
        const link = header.getByRole('link', { name: label });
        await link.waitFor();
        await expect(link.getAttribute('href')).resolves.toBe(href);
        await expect(header.getByRole('link', { name: 'Sign Up' }).count()).resolves.toBe(0);
        await expect(header.getByRole('link', { name: 'Sign In' }).count()).resolves.toBe(0);
        // The longer button still fits beside the logo and the menu on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          viewport.width,
        );
        if (viewport === PHONE) {
          const logo = await header.locator('.pub-logo span').boundingBox();
          const menu = await header.getByRole('button', { name: 'Menu' }).boundingBox();
          expect((logo?.x ?? 0) + (logo?.width ?? 0)).toBeLessThanOrEqual(menu?.x ?? 0);
        }
      }
      // Signing out in another tab puts Sign Up back at once (the storage event).
      const other = await browser.context.newPage();
      await other.goto(`${env.webUrl}/pricing`);
      await other.evaluate((key) => localStorage.removeItem(key), SESSION_HINT_KEY);
      await other.close();
      await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).waitFor();
    } finally {
      await page.evaluate((key) => localStorage.removeItem(key), SESSION_HINT_KEY);
      await page.close();
    }
  });

  it('works from the keyboard alone: skip link, then the links in order', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/pricing`);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Skip to main content',
    );
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => location.hash)).resolves.toBe('#main');
    await page.goto(`${env.webUrl}/pricing`);
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(order).toEqual([
      'Skip to main content',
      'Learning Budget',
      'How It Works',
      'Pricing',
      'FAQs',
      'Contact Us',
      'Sign In',
      'Sign Up',
    ]);
    await page.keyboard.press('Shift+Tab'); // back to Sign In
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.webUrl}/login`);
    await page.close();
  });

  it('opens and closes the phone menu with the keyboard', async () => {
    const page = await newPage(PHONE);
    await page.goto(`${env.webUrl}/`);
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.waitFor();
    const pricing = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' });
    await expect(pricing.isVisible()).resolves.toBe(false);
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');

    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab'); // logo
    await page.keyboard.press('Tab'); // Menu
    await expect(toggle.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(pricing.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('How It Works');
    await page.keyboard.press('Escape');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(toggle.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expect(pricing.isVisible()).resolves.toBe(false);

    // Space opens it too; following a link goes there.
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.webUrl}/pricing`);
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    await page.close();
  });

  it('closes the phone menu when focus or a click goes elsewhere', async () => {
    const page = await newPage(PHONE);
    await page.goto(`${env.webUrl}/terms`);
    const toggle = page.getByRole('button', { name: 'Menu' });
    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await page.mouse.click(200, 600);
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await toggle.click();
    await page.getByRole('banner').getByRole('link', { name: 'Sign Up' }).focus();
    await page.keyboard.press('Tab'); // out of the header, into the page
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await page.close();
  });
});

describe('landing page skill carousel (spec §1, §9)', () => {
  const word = (page: Page) => page.locator('[data-carousel-word]').textContent();
  const runningAnimations = (page: Page) =>
    page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);

  it('shows a new word every 2 seconds and can be paused', async () => {
    const page = await newPage();
    // The test browsers ask for reduced motion by default; this one does not.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto(`${env.webUrl}/`);
    await page.waitForFunction(() => document.querySelector('[data-carousel]')?.getAttribute('data-state'));
    expect(await word(page)).toBe(carouselSkills[0]);
    // The words come in order, one after another.
    for (const next of carouselSkills.slice(1, 3)) {
      await page.waitForFunction(
        (expected) => document.querySelector('[data-carousel-word]')?.textContent === expected,
        next,
      );
    }

    const pause = page.getByRole('button', { name: 'Pause the skills animation' });
    await pause.focus();
    await page.keyboard.press('Enter');
    // Paused means no animation left on the word (the next word comes only when one ends),
    // and the word on screen is whole: no clip left over from a change.
    await page.waitForFunction(
      () => document.querySelector('[data-carousel]')?.getAttribute('data-state') === 'paused',
    );
    expect(await runningAnimations(page)).toBe(0);
    const clip = await page.locator('[data-carousel-word]').evaluate((el) => getComputedStyle(el).clipPath);
    expect(clip).toBe('none');
    await expect(page.getByRole('button', { name: 'Play the skills animation' }).isVisible()).resolves.toBe(
      true,
    );
    await page.close();
  });

  it('keeps the word at full contrast at every moment of a change, at 1280 and 375 px', async () => {
    const page = await newPage();
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto(`${env.webUrl}/`);
    await page.waitForFunction(
      () => document.querySelector('[data-carousel]')?.getAttribute('data-state') === 'playing',
    );
    // Hold the word's animation at chosen moments (in and out of a change) and scan each one:
    // a scan on a busy machine can land anywhere in the 2 s cycle.
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      for (const at of [0, 50, 125, 250, 375, 499, 1000, 1501, 1625, 1750, 1875, 1999]) {
        await page.evaluate((ms) => {
          const [animation] = document.querySelector('[data-carousel-word]')?.getAnimations() ?? [];
          if (!animation) throw new Error('the carousel word is not animated');
          animation.pause();
          animation.currentTime = ms;
        }, at);
        const findings = await new AxeBuilder({ page })
          .include('[data-carousel]')
          .withRules(['color-contrast'])
          .analyze();
        expect({ at, violations: findings.violations.map((v) => v.id) }).toEqual({ at, violations: [] });
      }
    }
    await page.close();
  });

  it('stands still, with no Pause button, for people who prefer reduced motion', async () => {
    const page = await newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${env.webUrl}/`);
    await page.waitForFunction(() => document.querySelector('[data-carousel]')?.getAttribute('data-state'));
    await expect(page.locator('[data-carousel]').getAttribute('data-state')).resolves.toBe('still');
    expect(await runningAnimations(page)).toBe(0);
    expect(await word(page)).toBe(carouselSkills[0]);
    await expect(page.getByRole('button', { name: /the skills animation/ }).isVisible()).resolves.toBe(false);
    await page.close();
  });

  it('gives screen readers all twelve skills at once instead of the moving word', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/`);
    const carousel = page.locator('[data-carousel]');
    await expect(carousel.locator('[data-carousel-word]').getAttribute('aria-hidden')).resolves.toBe('true');
    const spoken = await carousel.locator('.pub-sr-only').textContent();
    for (const skill of carouselSkills) expect(spoken).toContain(skill);
    await page.close();
  });
});

describe('FAQ accordion and the how-it-works menu', () => {
  it('opens and closes answers with Enter and Space, and a link to an answer opens it', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/faqs`);
    const question = page.locator('#faq-redemption > summary');
    const answer = page.getByText('Redemption costs 15% of the amount or $5, whichever is greater');
    await expect(answer.isVisible()).resolves.toBe(false);
    await question.focus();
    await page.keyboard.press('Enter');
    await expect(answer.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Space');
    await expect(answer.isVisible()).resolves.toBe(false);

    await page.goto(`${env.webUrl}/faqs#faq-receipts`);
    await expect(page.getByText('Within 5 business days of the purchase').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('lists the seven skill areas with about a hundred traits', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/faqs`);
    const areas = await page.locator('.pub-areas__title').allTextContents();
    expect(areas).toEqual([
      'Attitude',
      'Communication',
      'Critical Thinking',
      'Emotional Intelligence',
      'Execution',
      'Leadership',
      'Relationship',
    ]);
    const traits = await page.locator('.pub-traits li').count();
    expect(traits).toBeGreaterThanOrEqual(95);
    await page.close();
  });

  it('moves through the guide with the side menu from the keyboard', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/howitworks`);
    const menu = page.getByRole('navigation', { name: 'How it works' });
    for (const name of ['Setup', 'Manager', 'Employee', 'Shop', 'Upload receipt']) {
      await expect(menu.getByRole('link', { name, exact: true }).isVisible()).resolves.toBe(true);
    }
    await menu.getByRole('link', { name: 'Shop', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.webUrl}/howitworks/shop`);
    await expect(
      page
        .getByRole('navigation', { name: 'How it works' })
        .getByRole('link', { name: 'Shop', exact: true })
        .getAttribute('aria-current'),
    ).resolves.toBe('page');
    await page.getByText('the billing address shown with your card').waitFor();

    await page
      .getByRole('navigation', { name: 'How it works' })
      .getByRole('link', { name: 'Employee', exact: true })
      .click();
    await page.waitForURL(`${env.webUrl}/howitworks/setup#employee`);
    const top = await page.locator('#employee').evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
    await page.close();
  });
});

describe('from the public pages into the app', () => {
  it('reaches the SPA pages (contact form, waitlist) from the footer and the header', async () => {
    const page = await newPage();
    await page.goto(`${env.webUrl}/faqs`);
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Contact Us' }).click();
    await page.waitForURL(`${env.webUrl}/support`);
    await page.getByRole('heading', { level: 1, name: 'Contact Us' }).waitFor();
    await page.getByLabel('Message').waitFor();
    // Back to a marketing page inside the SPA: the same content, rendered by React.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    await expect(page.title()).resolves.toBe('Pricing | Learning Budget');
    expect(spaProblems(page.problems)).toEqual([]);
    await page.close();
  });
});
