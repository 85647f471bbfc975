/** Suspense fallback while a page's code loads; announced politely, shown small. */
export function Loading({ fullPage = false }: { fullPage?: boolean }) {
  return (
    <div className={`pub-loading${fullPage ? ' pub-loading--full' : ''}`} role="status">
      <span className="pub-loading__spinner" aria-hidden="true" />
      Loading…
    </div>
  );
}
