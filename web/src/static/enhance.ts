/**
 * The only script of the pre-rendered public pages (its own Vite entry, a few
 * KB): everything on those pages reads and works without it; it adds the
 * header behaviour, the skill carousel, and opens an FAQ answer a link points
 * at. No React here: the landing page must stay under 60 KB of JavaScript.
 *
 * Safety net: if a server answers an app address (/dashboard, /subscribe...)
 * with a pre-rendered page instead of the SPA shell - an SPA fallback still
 * pointing at index.html rather than app.html - the address does not match the
 * page, and this loads the SPA from app.html in its place (same scripts and
 * styles, so the CSP's script-src 'self' allows it).
 */
import '../styles/public.css';
import '../styles/marketing.css';
import { startCarousel } from '../enhance/carousel';
import { enhanceHeader } from '../enhance/header';
import { normalizePath } from './paths';

/** Opens the <details> an address like /faqs#faq-rollover points at (browsers only scroll to it). */
function openTargetDetails() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  const details = target?.closest('details');
  if (details && !details.open) {
    details.open = true;
    target?.scrollIntoView();
  }
}

/** The SPA shell the build writes (web/scripts/prerender.ts). */
const SPA_SHELL = '/app.html';

async function bootSpa() {
  document.getElementById('root')?.replaceChildren();
  const response = await fetch(SPA_SHELL);
  if (!response.ok) throw new Error(`${SPA_SHELL}: HTTP ${response.status}`);
  const shell = new DOMParser().parseFromString(await response.text(), 'text/html');
  for (const link of shell.querySelectorAll('link[rel="stylesheet"][href]')) {
    const copy = document.createElement('link');
    copy.rel = 'stylesheet';
    copy.href = link.getAttribute('href') ?? '';
    document.head.append(copy);
  }
  for (const script of shell.querySelectorAll('script[type="module"][src]')) {
    const copy = document.createElement('script');
    copy.type = 'module';
    copy.src = script.getAttribute('src') ?? '';
    document.head.append(copy);
  }
}

const page = document.documentElement.dataset.page;
if (page !== undefined && normalizePath(location.pathname) !== page) {
  void bootSpa();
} else {
  const header = document.querySelector<HTMLElement>('.pub-header');
  if (header) enhanceHeader(header);
  for (const carousel of document.querySelectorAll<HTMLElement>('[data-carousel]')) startCarousel(carousel);
  openTargetDetails();
  window.addEventListener('hashchange', openTargetDetails);
}
