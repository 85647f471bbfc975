/** /pricing - the pricing card (spec §1; decisions.md "Money"). Pre-rendered; the SPA shows the same component. */
import '../../styles/marketing.css';
import { Link } from 'react-router-dom';
import { RichText } from '../../components/RichText';
import { usePageTitle } from '../../components/usePageTitle';
import { pages } from '../../content/pages';
import { billingDetails, example, fees, pricingCard } from '../../content/pricing';

function CheckIcon() {
  return (
    <svg className="pub-pricing__check" width="20" height="20" viewBox="0 0 20 20" aria-hidden="true">
      <path
        d="M4 10.5l4 4 8-9"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function PricingPage() {
  usePageTitle(pages.pricing);
  return (
    <div className="pub-container pub-page">
      <header className="pub-page__header">
        <h1 className="pub-page__title">Pricing</h1>
        <p className="pub-page__lead">One price, and it is the budget itself.</p>
      </header>

      <div className="pub-pricing">
        <section className="pub-pricing__card" aria-labelledby="plan-title">
          <h2 id="plan-title" className="pub-pricing__name">
            {pricingCard.name}
          </h2>
          <p className="pub-pricing__price">
            <span className="pub-pricing__amount">{pricingCard.amount}</span>
            <span className="pub-pricing__unit">{pricingCard.unit}</span>
          </p>
          <p className="pub-pricing__summary">{pricingCard.summary}</p>
          <ul className="pub-pricing__features">
            {pricingCard.features.map((feature) => (
              <li key={feature}>
                <CheckIcon />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
          <Link
            to={pricingCard.cta.href}
            className="pub-btn pub-btn--primary pub-btn--large pub-pricing__cta"
          >
            {pricingCard.cta.label}
          </Link>
        </section>

        <div className="pub-pricing__details">
          <section aria-labelledby="example-title" className="pub-panel">
            <h2 id="example-title" className="pub-panel__title">
              {example.heading}
            </h2>
            <p>{example.text}</p>
          </section>
          <section aria-labelledby="billing-title" className="pub-panel">
            <h2 id="billing-title" className="pub-panel__title">
              {billingDetails.heading}
            </h2>
            <ul className="pub-list">
              {billingDetails.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </section>
        </div>
      </div>

      <section aria-labelledby="fees-title" className="pub-section pub-section--flush">
        <h2 id="fees-title" className="pub-section__title">
          {fees.heading}
        </h2>
        <div className="pub-table-wrap">
          <table className="pub-table">
            <thead>
              <tr>
                <th scope="col">What</th>
                <th scope="col">Fee</th>
              </tr>
            </thead>
            <tbody>
              {fees.rows.map((row) => (
                <tr key={row.item}>
                  <th scope="row">{row.item}</th>
                  <td>{row.fee}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="pub-section__more">
          <RichText text={fees.more} />
        </p>
      </section>
    </div>
  );
}
