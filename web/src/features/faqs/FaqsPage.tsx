/**
 * /faqs (spec §2): about, the seven skill areas with their traits, the FAQ
 * accordion and a contact section. The accordion is native <details>/<summary>:
 * it opens with Enter or Space and works without JavaScript.
 */
import '../../styles/marketing.css';
import { Link } from 'react-router-dom';
import { Paragraphs } from '../../components/RichText';
import { SocialLinks } from '../../components/SocialLinks';
import { usePageTitle } from '../../components/usePageTitle';
import { about, contact, faqs } from '../../content/faqs';
import { pages } from '../../content/pages';
import { skillAreas } from '../../content/skills';

const sections = [
  { id: 'about', label: 'About' },
  { id: 'skills', label: 'Skill areas' },
  { id: 'questions', label: 'Questions' },
  { id: 'contact', label: 'Contact' },
] as const;

const traitCount = skillAreas.reduce((sum, area) => sum + area.traits.length, 0);

export function FaqsPage() {
  usePageTitle(pages.faqs);
  return (
    <div className="pub-container pub-page">
      <header className="pub-page__header">
        <h1 className="pub-page__title">FAQs</h1>
        <p className="pub-page__lead">
          What Learning Budget is, what your team can learn, and how the money works.
        </p>
        <nav aria-label="On this page" className="pub-toc pub-toc--inline">
          <ul>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </header>

      <section
        id="about"
        aria-labelledby="about-title"
        className="pub-section pub-section--flush pub-measure"
      >
        <h2 id="about-title" className="pub-section__title">
          About Learning Budget
        </h2>
        <Paragraphs items={about} />
      </section>

      <section id="skills" aria-labelledby="skills-title" className="pub-section pub-section--flush">
        <h2 id="skills-title" className="pub-section__title">
          Seven skill areas
        </h2>
        <p className="pub-section__lead">
          The catalog is organized around seven areas of professional growth, and {traitCount} traits that
          support them. Use them to find materials, or to talk with your manager about what to learn next.
        </p>
        <ul className="pub-areas">
          {skillAreas.map((area) => (
            <li key={area.id} id={area.id} className="pub-areas__item">
              <h3 className="pub-areas__title">{area.name}</h3>
              <p className="pub-areas__summary">{area.summary}</p>
              <ul className="pub-traits" aria-label={`${area.name} traits`}>
                {area.traits.map((trait) => (
                  <li key={trait}>{trait}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>

      <section id="questions" aria-labelledby="questions-title" className="pub-section pub-section--flush">
        <h2 id="questions-title" className="pub-section__title">
          Frequently asked questions
        </h2>
        <div className="pub-accordion">
          {faqs.map((faq) => (
            <details key={faq.id} id={faq.id} className="pub-accordion__item">
              <summary className="pub-accordion__summary">{faq.question}</summary>
              <div className="pub-accordion__body">
                <Paragraphs items={faq.answer} />
              </div>
            </details>
          ))}
        </div>
      </section>

      <section id="contact" aria-labelledby="contact-title" className="pub-section pub-section--flush">
        <div className="pub-panel pub-contact">
          <div>
            <h2 id="contact-title" className="pub-panel__title">
              {contact.title}
            </h2>
            <p>{contact.text}</p>
            <Link to={contact.cta.href} className="pub-btn pub-btn--primary">
              {contact.cta.label}
            </Link>
          </div>
          <SocialLinks label="Learning Budget elsewhere" />
        </div>
      </section>
    </div>
  );
}
