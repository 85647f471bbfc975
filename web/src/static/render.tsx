/**
 * Build-time entry (bundled by Vite's SSR build in web/scripts/prerender.ts,
 * run in Node, never shipped): renders every pre-rendered public page to HTML
 * with the same components the SPA uses, plus its <head> tags.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { PublicLayout } from '../app/PublicLayout';
import { type PageKey, type PageMeta, pages } from '../content/pages';
import { publicPageElements } from '../features/publicPages';
import { pageHead, robotsTxt, sitemapXml } from './seo';

export interface RenderedPage {
  path: string;
  /** Tags for <head>. */
  head: string;
  /** The inside of <div id="root">. */
  body: string;
}

export function renderPage(key: PageKey, origin: string): RenderedPage {
  const page: PageMeta = pages[key];
  const body = renderToStaticMarkup(
    <StaticRouter location={page.path}>
      <PublicLayout>{publicPageElements[key]()}</PublicLayout>
    </StaticRouter>,
  );
  return { path: page.path, head: pageHead(page, origin), body };
}

export function renderSite(origin: string, lastModified?: string) {
  const keys = Object.keys(pages) as PageKey[];
  return {
    pages: keys.map((key) => renderPage(key, origin)),
    sitemap: sitemapXml(origin, Object.values(pages), lastModified),
    robots: robotsTxt(origin),
  };
}
