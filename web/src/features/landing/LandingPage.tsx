/**
 * / - the marketing home page (spec §1, §2): hero with the skill carousel, how
 * it works, why teams use it, the skills, quotes and a call to action to
 * register. Pre-rendered at build time; the SPA shows the same component.
 */
import '../../styles/marketing.css';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../components/usePageTitle';
import { benefits, callToAction, hero, quotes, skillsSection, steps } from '../../content/landing';
import { pages } from '../../content/pages';
import { carouselSkills } from '../../content/skills';
import { startCarousel } from '../../enhance/carousel';

/** "Sales, Leadership, ... and Decision Making." */
function spokenList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function SkillCarousel() {
  const root = useRef<HTMLParagraphElement>(null);
  useEffect(() => (root.current ? startCarousel(root.current) : undefined), []);
  return (
    <p ref={root} className="pub-carousel" data-carousel="" data-words={carouselSkills.join('|')}>
      <span className="pub-carousel__label">{hero.carouselLabel}</span>{' '}
      <span className="pub-carousel__word" data-carousel-word="" aria-hidden="true">
        {carouselSkills[0]}
      </span>
      <span className="pub-sr-only">{`${spokenList(carouselSkills)}.`}</span>
      {/* Takes its place from the start (no layout shift); visible only while the words move. */}
      <button type="button" className="pub-carousel__pause" data-carousel-pause="">
        Pause
      </button>
    </p>
  );
}

/** The sample card beside the hero: an illustration, hidden from screen readers. */
function CardArt() {
  const { card } = hero;
  return (
    <div className="pub-card-art" aria-hidden="true">
      <div className="pub-card-art__card">
        <div className="pub-card-art__top">
          <span className="pub-card-art__brand">Learning Budget</span>
          <span className="pub-card-art__kind">Virtual · Prepaid</span>
        </div>
        <div className="pub-card-art__chip" />
        <div className="pub-card-art__number">•••• •••• •••• {card.last4}</div>
        <div className="pub-card-art__bottom">
          <span>{card.holder}</span>
          <span>{card.expiry}</span>
        </div>
      </div>
      <div className="pub-card-art__balance">
        <span className="pub-card-art__balance-label">Available this month</span>
        <span className="pub-card-art__balance-amount">{card.balance}</span>
      </div>
    </div>
  );
}

export function LandingPage() {
  usePageTitle(pages.landing);
  return (
    <>
      <section className="pub-hero" aria-labelledby="hero-title">
        <div className="pub-container pub-hero__inner">
          <div className="pub-hero__text">
            <h1 id="hero-title" className="pub-hero__title">
              {hero.heading}
            </h1>
            <p className="pub-hero__lead">{hero.lead}</p>
            <SkillCarousel />
            <p className="pub-hero__actions">
              <Link to={hero.primary.href} className="pub-btn pub-btn--primary pub-btn--large">
                {hero.primary.label}
              </Link>
              <Link to={hero.secondary.href} className="pub-btn pub-btn--secondary pub-btn--large">
                {hero.secondary.label}
              </Link>
            </p>
          </div>
          <CardArt />
        </div>
      </section>

      <section className="pub-section" aria-labelledby="steps-title">
        <div className="pub-container">
          <h2 id="steps-title" className="pub-section__title">
            {steps.heading}
          </h2>
          <ol className="pub-steps pub-steps--row">
            {steps.items.map((step) => (
              <li key={step.title} className="pub-steps__item">
                <h3 className="pub-steps__title">{step.title}</h3>
                <p>{step.text}</p>
              </li>
            ))}
          </ol>
          <p className="pub-section__more">
            <Link to={steps.more.href}>{steps.more.label}</Link>
          </p>
        </div>
      </section>

      <section className="pub-section pub-section--surface" aria-labelledby="benefits-title">
        <div className="pub-container">
          <h2 id="benefits-title" className="pub-section__title">
            {benefits.heading}
          </h2>
          <ul className="pub-features">
            {benefits.items.map((item) => (
              <li key={item.title} className="pub-features__item">
                <h3 className="pub-features__title">{item.title}</h3>
                <p>{item.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="pub-section" aria-labelledby="skills-title">
        <div className="pub-container">
          <h2 id="skills-title" className="pub-section__title">
            {skillsSection.heading}
          </h2>
          <p className="pub-section__lead">{skillsSection.lead}</p>
          <ul className="pub-chips">
            {carouselSkills.map((skill) => (
              <li key={skill} className="pub-chips__item">
                {skill}
              </li>
            ))}
          </ul>
          <p className="pub-section__more">
            <Link to={skillsSection.more.href}>{skillsSection.more.label}</Link>
          </p>
        </div>
      </section>

      <section className="pub-section pub-section--surface" aria-labelledby="quotes-title">
        <div className="pub-container">
          <h2 id="quotes-title" className="pub-section__title">
            On learning
          </h2>
          <ul className="pub-quotes">
            {quotes.map((quote) => (
              <li key={quote.author} className="pub-quotes__item">
                <figure className="pub-quote">
                  <blockquote className="pub-quote__text">
                    <p>{quote.text}</p>
                  </blockquote>
                  <figcaption className="pub-quote__by">
                    {quote.author}, <cite>{quote.source}</cite>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="pub-section" aria-labelledby="cta-title">
        <div className="pub-container">
          <div className="pub-cta">
            <h2 id="cta-title" className="pub-cta__title">
              {callToAction.heading}
            </h2>
            <p className="pub-cta__text">{callToAction.text}</p>
            <p className="pub-cta__actions">
              <Link to={callToAction.primary.href} className="pub-btn pub-btn--inverse pub-btn--large">
                {callToAction.primary.label}
              </Link>
              <Link
                to={callToAction.secondary.href}
                className="pub-btn pub-btn--outline-inverse pub-btn--large"
              >
                {callToAction.secondary.label}
              </Link>
            </p>
          </div>
        </div>
      </section>
    </>
  );
}
