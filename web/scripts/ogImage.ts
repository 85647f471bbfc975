/**
 * Draws web/public/og-image.jpg, the 1200x630 picture link previews show for
 * every public page (static/seo.ts), with Debian's Chromium. Run it after
 * changing the product name or tagline:
 *   npx tsx web/scripts/ogImage.ts
 */
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../../test/support/browser';
import { PRODUCT_NAME, PRODUCT_TAGLINE } from '../src/content/site';
import { escapeHtml, OG_IMAGE } from '../src/static/seo';

const out = fileURLToPath(new URL('../public/og-image.jpg', import.meta.url));

const html = `<!doctype html><html><head><style>
  body { margin: 0; width: ${OG_IMAGE.width}px; height: ${OG_IMAGE.height}px; font-family: system-ui, sans-serif;
    background: linear-gradient(135deg, #1e3a8a 0%, #1d4ed8 60%, #3b82f6 100%); color: #fff;
    display: flex; flex-direction: column; justify-content: center; padding: 0 88px; box-sizing: border-box; }
  .brand { display: flex; align-items: center; gap: 24px; font-size: 64px; font-weight: 800; letter-spacing: -1px; }
  p { margin: 36px 0 0; max-width: 900px; font-size: 44px; line-height: 1.25; font-weight: 500; }
  .price { margin-top: 40px; font-size: 32px; font-weight: 700; color: #dbe6fe; }
</style></head><body>
  <div class="brand"><svg width="96" height="96" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#fff"/>
    <rect x="6" y="9" width="20" height="14" rx="2.5" fill="none" stroke="#1d4ed8" stroke-width="2"/>
    <path d="M6 13.5h20M10 19h5" stroke="#1d4ed8" stroke-width="2" stroke-linecap="round"/></svg>${escapeHtml(PRODUCT_NAME)}</div>
  <p>${escapeHtml(PRODUCT_TAGLINE)}</p>
  <div class="price">$25 per employee per month, all of it on their card</div>
</body></html>`;

const browser = await launchBrowser({ width: OG_IMAGE.width, height: OG_IMAGE.height });
const page = await browser.context.newPage();
await page.setContent(html);
await page.screenshot({
  path: out,
  type: 'jpeg',
  quality: 88,
  clip: { x: 0, y: 0, width: OG_IMAGE.width, height: OG_IMAGE.height },
});
await browser.close();
console.log(`wrote ${out}`);
