/** Pure helpers of the pre-rendered public site: session hint, inline markup, paths, SEO tags, carousel, header. */
import { describe, expect, it } from 'vitest';
import { fillTemplate } from '../../web/scripts/prerender';
import {
  clearSessionHint,
  parseSessionHint,
  readSessionHint,
  SESSION_HINT_KEY,
  signedInActions,
  writeSessionHint,
} from '../../web/src/auth/sessionHint';
import { isSitePath, parseInline, plainText } from '../../web/src/components/richText';
import { documentTitle, pages } from '../../web/src/content/pages';
import { carouselKeyframes, nextIndex } from '../../web/src/enhance/carousel';
import { HEADER_SCROLLED_PX, isScrolled } from '../../web/src/enhance/header';
import { normalizePath, pageFile } from '../../web/src/static/paths';
import {
  absoluteUrl,
  checkOrigin,
  escapeHtml,
  pageHead,
  robotsTxt,
  sitemapXml,
} from '../../web/src/static/seo';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('the signed-in hint (localStorage lb.session)', () => {
  it.each([
    ['{"role":"manager"}', { role: 'manager' }],
    ['{"role":"employee"}', { role: 'employee' }],
    ['{"role":"employee","extra":1}', { role: 'employee' }],
    ['{"role":"admin"}', null],
    ['{"role":["manager"]}', null],
    ['"manager"', null],
    ['null', null],
    ['not json', null],
    ['', null],
    [null, null],
  ])('%s reads as %j', (raw, expected) => {
    expect(parseSessionHint(raw)).toEqual(expected);
  });

  it('is written on sign-in and removed on sign-out, under the agreed key', () => {
    const storage = memoryStorage();
    writeSessionHint('manager', storage);
    expect(storage.items.get(SESSION_HINT_KEY)).toBe('{"role":"manager"}');
    expect(readSessionHint(storage)).toEqual({ role: 'manager' });
    clearSessionHint(storage);
    expect(readSessionHint(storage)).toBeNull();
  });

  it('counts blocked storage as signed out', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceeded');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readSessionHint(throwing)).toBeNull();
    expect(() => writeSessionHint('employee', throwing)).not.toThrow();
    expect(() => clearSessionHint(throwing)).not.toThrow();
  });

  it("offers 'Go to Dashboard' to managers and 'Go Shopping' to employees (spec §2)", () => {
    expect(signedInActions.manager).toEqual({ label: 'Go to Dashboard', href: '/dashboard' });
    expect(signedInActions.employee).toEqual({ label: 'Go Shopping', href: '/shop' });
  });
});

describe('inline markup of the public copy', () => {
  it('splits text, links and emphasis', () => {
    expect(parseInline('See [Pricing](/pricing) and **no fee**.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'Pricing', href: '/pricing' },
      { kind: 'text', text: ' and ' },
      { kind: 'strong', text: 'no fee' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('leaves anything else as text, HTML included', () => {
    expect(parseInline('<b>5 * 3</b> [not a link] (x)')).toEqual([
      { kind: 'text', text: '<b>5 * 3</b> [not a link] (x)' },
    ]);
    expect(parseInline('')).toEqual([]);
  });

  it('gives the plain text a reader sees', () => {
    expect(plainText('A [link](#x) and **bold**')).toBe('A link and bold');
  });

  it.each([
    ['/pricing', true],
    ['/terms#returns', true],
    ['#returns', false],
    ['//evil.example', false],
    ['https://example.com', false],
  ])('%s is a site path: %s', (href, expected) => {
    expect(isSitePath(href)).toBe(expected);
  });
});

describe('page addresses and files', () => {
  it.each([
    ['/', '/'],
    ['', '/'],
    ['/index.html', '/'],
    ['/pricing', '/pricing'],
    ['/pricing/', '/pricing'],
    ['/pricing//', '/pricing'],
    ['/pricing/index.html', '/pricing'],
    ['/howitworks/setup/', '/howitworks/setup'],
  ])('%s is the page %s', (path, expected) => {
    expect(normalizePath(path)).toBe(expected);
  });

  it.each([
    ['/', 'index.html'],
    ['/pricing', 'pricing/index.html'],
    ['/howitworks/setup/', 'howitworks/setup/index.html'],
  ])('%s is stored in %s', (path, file) => {
    expect(pageFile(path)).toBe(file);
  });
});

describe('head tags, sitemap and robots.txt', () => {
  const origin = 'https://app.example.com';

  it('escapes text for HTML attributes', () => {
    expect(escapeHtml(`"Tom & Jerry's" <b>`)).toBe('&quot;Tom &amp; Jerry&#39;s&quot; &lt;b&gt;');
  });

  it('accepts an http(s) origin and refuses a path or another scheme', () => {
    expect(checkOrigin('https://app.example.com/')).toBe(origin);
    expect(checkOrigin('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(() => checkOrigin('https://app.example.com/site')).toThrow(/without a path/);
    expect(() => checkOrigin('ftp://example.com')).toThrow(/http\(s\)/);
    expect(() => checkOrigin('example.com')).toThrow(/origin/);
    expect(absoluteUrl(origin, '/pricing')).toBe(`${origin}/pricing`);
  });

  it('gives each page its title, description, canonical address and Open Graph tags', () => {
    const head = pageHead(pages.pricing, origin);
    expect(head).toContain('<title>Pricing | Learning Budget</title>');
    expect(head).toContain(`<meta name="description" content="${escapeHtml(pages.pricing.description)}" />`);
    expect(head).toContain(`<link rel="canonical" href="${origin}/pricing" />`);
    for (const property of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type', 'og:site_name']) {
      expect(head).toContain(`property="${property}"`);
    }
    expect(head).toContain(`content="${origin}/og-image.jpg"`);
    expect(head).toContain('name="twitter:card" content="summary_large_image"');
  });

  it('leads the landing page title with the product name', () => {
    expect(documentTitle(pages.landing)).toBe('Learning Budget: Learning budgets on virtual prepaid cards');
    expect(documentTitle(pages.faqs)).toBe('FAQs | Learning Budget');
  });

  it('lists every page in the sitemap with absolute addresses', () => {
    const xml = sitemapXml(origin, Object.values(pages), '2026-11-21');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    for (const page of Object.values(pages)) expect(xml).toContain(`<loc>${origin}${page.path}</loc>`);
    expect(xml).toContain('<lastmod>2026-11-21</lastmod>');
  });

  it('keeps crawlers out of the signed-in area and names the sitemap', () => {
    const robots = robotsTxt(origin);
    expect(robots).toContain('User-agent: *');
    expect(robots).toContain('Disallow: /dashboard');
    expect(robots).toContain('Disallow: /app.html');
    expect(robots).not.toMatch(/Disallow: \/(pricing|faqs|support)\b/);
    expect(robots).toContain(`Sitemap: ${origin}/sitemap.xml`);
  });
});

describe('filling the built page template', () => {
  const template =
    '<!doctype html><html lang="en"><head><!--page-head--><script type="module" src="/assets/public-x.js"></script></head><body><div id="root"><!--page-body--></div></body></html>';

  it('puts the page, its head tags and its address in place', () => {
    const html = fillTemplate(template, {
      path: '/faqs',
      head: '<title>FAQs</title>',
      body: '<main>Hi</main>',
    });
    expect(html).toBe(
      '<!doctype html><html lang="en" data-page="/faqs"><head><title>FAQs</title><script type="module" src="/assets/public-x.js"></script></head><body><div id="root"><main>Hi</main></div></body></html>',
    );
  });

  it('copies page text literally, even replacement patterns', () => {
    const html = fillTemplate(template, { path: '/', head: '', body: '<p>$& costs $5 $1</p>' });
    expect(html).toContain('<p>$& costs $5 $1</p>');
  });

  it('fails loudly when the template lost a marker', () => {
    expect(() =>
      fillTemplate('<html lang="en"><head></head></html>', { path: '/', head: '', body: '' }),
    ).toThrow(/marker/);
  });
});

describe('the skill carousel timing (spec §9)', () => {
  it('wipes in over 0.5 s, holds, and wipes out over 0.5 s in a 2 s cycle', () => {
    expect(carouselKeyframes(2000, 1000)).toEqual([
      { clipPath: 'inset(0 100% 0 0)', offset: 0 },
      { clipPath: 'inset(0 0 0 0)', offset: 0.25 },
      { clipPath: 'inset(0 0 0 0)', offset: 0.75 },
      { clipPath: 'inset(0 0 0 100%)', offset: 1 },
    ]);
  });

  it('never animates colour or opacity, so the word keeps its contrast mid-change', () => {
    for (const frame of carouselKeyframes(2000, 1000)) {
      expect(Object.keys(frame).sort()).toEqual(['clipPath', 'offset']);
    }
  });

  it('goes round the words', () => {
    expect(nextIndex(0, 12)).toBe(1);
    expect(nextIndex(11, 12)).toBe(0);
    expect(nextIndex(0, 0)).toBe(0);
  });
});

describe('the header (spec §2)', () => {
  it('turns white only once scrolled more than 10 px', () => {
    expect(HEADER_SCROLLED_PX).toBe(10);
    expect(isScrolled(0)).toBe(false);
    expect(isScrolled(10)).toBe(false);
    expect(isScrolled(11)).toBe(true);
  });
});
