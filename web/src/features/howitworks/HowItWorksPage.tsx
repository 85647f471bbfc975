/**
 * /howitworks, /howitworks/setup, /howitworks/shop, /howitworks/upload (spec
 * §2): a side menu (Setup with Manager and Employee anchors, Shop, Upload
 * receipt) beside an overview or one part's steps. Plain links: the menu
 * needs no script and works with Tab and Enter.
 */
import '../../styles/marketing.css';
import { Link, NavLink } from 'react-router-dom';
import { RichText } from '../../components/RichText';
import { usePageTitle } from '../../components/usePageTitle';
import { type GuidePart, type GuideSection, guide, overview } from '../../content/howItWorks';
import { type PageMeta, pages } from '../../content/pages';

type PartKey = GuidePart['key'];

const metaOf: Record<PartKey, PageMeta> = {
  setup: pages.howItWorksSetup,
  shop: pages.howItWorksShop,
  upload: pages.howItWorksUpload,
};

function SideMenu() {
  return (
    <nav aria-label="How it works" className="pub-guide__menu">
      <p className="pub-guide__menu-title">
        <NavLink to={pages.howItWorks.path} end>
          Guide overview
        </NavLink>
      </p>
      <ul>
        {guide.map((part) => (
          <li key={part.key}>
            <NavLink to={part.path} end>
              {part.menuLabel}
            </NavLink>
            {part.key === 'setup' ? (
              <ul>
                {part.sections.map((section) => (
                  <li key={section.id}>
                    {/* A plain link: the browser scrolls to the anchor (a router link would not). */}
                    <a href={`${part.path}#${section.id}`}>{section.title}</a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Section({ section, single }: { section: GuideSection; single: boolean }) {
  const titleId = `${section.id}-title`;
  return (
    <section id={section.id} aria-labelledby={titleId} className="pub-guide__section">
      <h2 id={titleId} className={single ? 'pub-sr-only' : 'pub-section__title'}>
        {section.title}
      </h2>
      <p className="pub-guide__intro">{section.intro}</p>
      <ol className="pub-steps">
        {section.steps.map((step) => (
          <li key={step.title} className="pub-steps__item">
            <h3 className="pub-steps__title">{step.title}</h3>
            <p>
              <RichText text={step.text} />
            </p>
          </li>
        ))}
      </ol>
      {section.notes?.map((note) => (
        <p key={note} className="pub-note">
          <RichText text={note} />
        </p>
      ))}
    </section>
  );
}

function Part({ part }: { part: GuidePart }) {
  return (
    <>
      <h1 className="pub-page__title">{part.heading}</h1>
      <p className="pub-page__lead">{part.lead}</p>
      {part.sections.map((section) => (
        <Section key={section.id} section={section} single={part.sections.length === 1} />
      ))}
      <PartPager current={part.key} />
    </>
  );
}

/** Previous / next part, so the guide reads front to back. */
function PartPager({ current }: { current: PartKey }) {
  const index = guide.findIndex((part) => part.key === current);
  const previous = guide[index - 1];
  const next = guide[index + 1];
  return (
    <nav aria-label="Guide pages" className="pub-pager">
      {previous ? (
        <Link to={previous.path} className="pub-pager__link">
          <span className="pub-pager__hint">Previous</span> {previous.menuLabel}
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link to={next.path} className="pub-pager__link pub-pager__link--next">
          <span className="pub-pager__hint">Next</span> {next.menuLabel}
        </Link>
      ) : null}
    </nav>
  );
}

function Overview() {
  return (
    <>
      <h1 className="pub-page__title">{overview.heading}</h1>
      <p className="pub-page__lead">{overview.lead}</p>
      <ol className="pub-guide__cards">
        {guide.map((part) => (
          <li key={part.key} className="pub-panel">
            <h2 className="pub-panel__title">
              <Link to={part.path}>{part.heading}</Link>
            </h2>
            <p>{part.summary}</p>
            <ul className="pub-list">
              {part.sections.flatMap((section) =>
                section.steps.map((step) => (
                  <li key={`${section.id}-${step.title}`}>
                    {part.sections.length > 1 ? `${section.title}: ` : ''}
                    {step.title}
                  </li>
                )),
              )}
            </ul>
          </li>
        ))}
      </ol>
    </>
  );
}

export function HowItWorksPage({ part }: { part?: PartKey }) {
  const current = part ? guide.find((candidate) => candidate.key === part) : undefined;
  usePageTitle(part ? metaOf[part] : pages.howItWorks);
  return (
    <div className="pub-container pub-page pub-guide">
      <SideMenu />
      <div className="pub-guide__content">{current ? <Part part={current} /> : <Overview />}</div>
    </div>
  );
}
