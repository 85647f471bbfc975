/**
 * What makes the pre-rendered pages findable: the <head> tags of each page
 * (title, description, canonical, Open Graph, Twitter card), sitemap.xml and
 * robots.txt. Pure string builders; web/scripts/prerender.ts writes them.
 */
import { documentTitle, type PageMeta } from '../content/pages';
import { PRODUCT_NAME } from '../content/site';

/** Served from web/public; 1200x630 as Open Graph asks. */
export const OG_IMAGE = {
  path: '/og-image.jpg',
  width: 1200,
  height: 630,
  alt: `${PRODUCT_NAME} logo and tagline`,
};

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** `https://app.example.com` + `/pricing`; the origin must be http(s) with no path. */
export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, `${checkOrigin(origin)}/`).href;
}

export function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`SITE_ORIGIN must be an origin such as https://app.example.com, got "${origin}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
    throw new Error(`SITE_ORIGIN must be an http(s) origin without a path, got "${origin}"`);
  }
  return url.origin;
}

/** The <head> tags of one page (charset, viewport, icon and scripts come from the template). */
export function pageHead(page: PageMeta, origin: string): string {
  const url = absoluteUrl(origin, page.path);
  const title = escapeHtml(documentTitle(page));
  const description = escapeHtml(page.description);
  const image = absoluteUrl(origin, OG_IMAGE.path);
  return [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(PRODUCT_NAME)}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta property="og:image" content="${escapeHtml(image)}" />`,
    `<meta property="og:image:width" content="${OG_IMAGE.width}" />`,
    `<meta property="og:image:height" content="${OG_IMAGE.height}" />`,
    `<meta property="og:image:alt" content="${escapeHtml(OG_IMAGE.alt)}" />`,
    `<meta property="og:locale" content="en_US" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
  ].join('\n    ');
}

export function sitemapXml(origin: string, pages: readonly PageMeta[], lastModified?: string): string {
  const urls = pages.map((page) => {
    const lastmod = lastModified ? `<lastmod>${lastModified}</lastmod>` : '';
    return `  <url><loc>${escapeHtml(absoluteUrl(origin, page.path))}</loc>${lastmod}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Signed-in areas are not for search engines; everything else may be crawled. */
export const DISALLOWED_PATHS = [
  '/dashboard',
  '/editProfile',
  '/inviteMembers',
  '/setupAccount',
  '/shop',
  '/verify',
  '/app.html',
] as const;

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${absoluteUrl(origin, '/sitemap.xml')}`,
    '',
  ].join('\n');
}
