/**
 * Addresses of pre-rendered pages. `/pricing`, `/pricing/` and
 * `/pricing/index.html` are the same page; the file it is stored in is
 * `pricing/index.html` (the landing page: `index.html`).
 */

export function normalizePath(pathname: string): string {
  let path = pathname.replace(/\/index\.html$/, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

/** The file under web/dist that holds the page at `path`. */
export function pageFile(path: string): string {
  const normalized = normalizePath(path);
  return normalized === '/' ? 'index.html' : `${normalized.slice(1)}/index.html`;
}
