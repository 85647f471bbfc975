import type { ReactNode } from 'react';
import { useDocumentTitle } from '../components/useDocumentTitle';

/** A page that later work builds: its name as the heading and one line. */
export function Placeholder({ title, children = 'Coming soon' }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="pub-container pub-page">
      <h1 className="pub-page__title">{title}</h1>
      <p className="pub-page__lead">{children}</p>
    </section>
  );
}
