/** /terms and /privacy: a heading, a table of contents and anchored sections (spec §2). */
import '../../styles/marketing.css';
import { Paragraphs, RichText } from '../../components/RichText';
import { usePageTitle } from '../../components/usePageTitle';
import type { LegalBlock, LegalDocument } from '../../content/legal';
import { pages } from '../../content/pages';
import { privacy } from '../../content/privacy';
import { terms } from '../../content/terms';

function Block({ block }: { block: LegalBlock }) {
  if (typeof block === 'string') {
    return (
      <p>
        <RichText text={block} />
      </p>
    );
  }
  return (
    <ul>
      {block.list.map((item) => (
        <li key={item}>
          <RichText text={item} />
        </li>
      ))}
    </ul>
  );
}

function LegalPage({ doc }: { doc: LegalDocument }) {
  return (
    <div className="pub-container pub-page pub-legal">
      <header className="pub-page__header">
        <h1 className="pub-page__title">{doc.title}</h1>
        <p className="pub-legal__updated">{doc.updated}</p>
      </header>
      <div className="pub-legal__layout">
        <nav aria-label="Contents" className="pub-toc">
          <h2 className="pub-toc__title">Contents</h2>
          <ol>
            {doc.sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="pub-prose">
          <Paragraphs items={doc.intro} />
          {doc.sections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
              <h2 id={`${section.id}-title`}>
                {index + 1}. {section.title}
              </h2>
              {section.blocks.map((block) => (
                <Block key={typeof block === 'string' ? block : block.list.join()} block={block} />
              ))}
            </section>
          ))}
        </div>
      </div>
    </div>
  );
}

export function TermsPage() {
  usePageTitle(pages.terms);
  return <LegalPage doc={terms} />;
}

export function PrivacyPage() {
  usePageTitle(pages.privacy);
  return <LegalPage doc={privacy} />;
}
