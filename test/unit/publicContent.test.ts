/**
 * The public copy agrees with decisions.md (which overrides spec.md) and with
 * itself: the numbers it quotes, the anchors spec §2 names, links that lead
 * somewhere, and the spec's lists of skills.
 */

import { PASSWORD_MIN_LENGTH as SHARED_PASSWORD_MIN_LENGTH } from '@shared/schemas/fields';
import { DEFAULT_BUDGET_DOLLARS as SHARED_DEFAULT_BUDGET } from '@shared/schemas/invitations';
import { describe, expect, it } from 'vitest';
import { parseInline, plainText } from '../../web/src/components/richText';
import { about, faqs } from '../../web/src/content/faqs';
import { guide } from '../../web/src/content/howItWorks';
import * as landing from '../../web/src/content/landing';
import type { LegalDocument } from '../../web/src/content/legal';
import { pageList, pages } from '../../web/src/content/pages';
import {
  DEFAULT_BUDGET_DOLLARS,
  formatDollars,
  PASSWORD_MIN_LENGTH,
  redemptionFeeCents,
} from '../../web/src/content/policy';
import * as pricing from '../../web/src/content/pricing';
import { privacy } from '../../web/src/content/privacy';
import { footerLinks, headerLinks } from '../../web/src/content/site';
import { carouselSkills, skillAreas } from '../../web/src/content/skills';
import { TERMS_SECTION_IDS, terms } from '../../web/src/content/terms';

const legalText = (doc: LegalDocument) =>
  [
    ...doc.intro,
    ...doc.sections.flatMap((s) => s.blocks.flatMap((b) => (typeof b === 'string' ? [b] : b.list))),
  ].join('\n');
const faqText = faqs.flatMap((faq) => [faq.question, ...faq.answer]).join('\n');
const guideText = guide
  .flatMap((part) => [
    part.lead,
    part.summary,
    ...part.sections.flatMap((s) => [s.intro, ...s.steps.map((step) => step.text), ...(s.notes ?? [])]),
  ])
  .join('\n');
const everyCopy = [
  JSON.stringify(landing),
  JSON.stringify(pricing),
  faqText,
  about.join('\n'),
  guideText,
  legalText(terms),
  legalText(privacy),
  pageList.map((p) => p.description).join('\n'),
].join('\n');

describe('numbers quoted on the public pages', () => {
  it('match the ones shared/ already defines', () => {
    expect(DEFAULT_BUDGET_DOLLARS).toBe(SHARED_DEFAULT_BUDGET);
    expect(PASSWORD_MIN_LENGTH).toBe(SHARED_PASSWORD_MIN_LENGTH);
  });

  it.each([
    [400, null], // under $5: not available
    [499, null],
    [500, 500], // $5 minimum
    [2000, 500],
    [3333, 500], // 15% is exactly $5
    [4000, 600], // 15%
    [10000, 1500],
    [40000, 6000],
  ])('redeeming %i cents costs %s cents (15%% or $5, whichever is greater)', (balance, fee) => {
    expect(redemptionFeeCents(balance)).toBe(fee);
  });

  it.each([
    [2500, '$25'],
    [500, '$5'],
    [1250, '$12.50'],
    [1505, '$15.05'],
  ])('%i cents reads %s', (cents, text) => {
    expect(formatDollars(cents)).toBe(text);
  });

  it("state the redemption fee as the terms do, never the spec's 10% or a 5% reallocation fee", () => {
    expect(faqText).toMatch(/15% of the amount or \$5, whichever is greater/);
    expect(legalText(terms)).toMatch(/15% of the amount redeemed or \$5, whichever is greater/);
    expect(faqText).toMatch(/not available for balances under \$5/);
    expect(everyCopy).not.toMatch(/\b10 ?%|\b5 ?% processing|6 business days/);
  });

  it('give receipts 5 business days, reallocation for free, and budget changes from the next cycle', () => {
    expect(faqText).toMatch(/Within 5 business days/);
    expect(legalText(terms)).toMatch(/within 5 business days/);
    expect(faqText).toMatch(/within your own team, and it is \*\*free\*\*/);
    expect(faqText).toMatch(/takes effect from the next monthly cycle/);
    expect(faqText).toMatch(/roll over/i);
  });

  it('describe dormancy at 11, 12, 12½ and 13 months, with nothing expiring silently', () => {
    for (const text of [faqText, legalText(terms)]) {
      expect(text).toMatch(/11 months/);
      expect(text).toMatch(/12, 12½ and 13 months/);
      expect(text).toMatch(/After 13 months/);
    }
    expect(everyCopy).not.toMatch(/funds (may|will) expire/i);
  });

  it('say the product is not a bank and the cards come from a partner bank through the card issuer', () => {
    expect(legalText(terms)).toMatch(/Learning Budget is not a bank/);
    expect(legalText(terms)).toMatch(/issued by our partner bank through our card issuer/);
  });

  it('keep children under 13 out (privacy policy)', () => {
    expect(legalText(privacy)).toMatch(/not for children under 13/);
  });

  it('price a seat at the budget, all of it on the card, with no fee', () => {
    expect(pricing.pricingCard.amount).toBe('$25');
    expect(pricing.pricingCard.unit).toBe('per active employee per month');
    expect(pricing.pricingCard.summary).toMatch(/All \$25 goes to the employee’s learning budget/);
    expect(pricing.pricingCard.summary).toMatch(/no fee at subscription/);
  });
});

describe('the terms (spec §2)', () => {
  it('have exactly the 15 anchored sections, in order', () => {
    expect(terms.sections.map((s) => s.id)).toEqual([...TERMS_SECTION_IDS]);
    expect(TERMS_SECTION_IDS).toEqual([
      'virtualcards',
      'purchasevalidation',
      'virtualbalance',
      'returns',
      'greatervalue',
      'unauthorizedtransactions',
      'expiration',
      'cardtransfer',
      'redemptionfees',
      'updates',
      'reallocation',
      'managertermination',
      'stolenvirtualcard',
      'disclosures',
      'termination',
    ]);
  });
});

describe('skills (spec §1)', () => {
  it('rotate the 12 carousel words in the spec’s order', () => {
    expect(carouselSkills).toEqual([
      'Sales',
      'Leadership',
      'Negotiation',
      'Communication',
      'Critical Thinking',
      'Presenting',
      'Strategy',
      'Execution',
      'Time Management',
      'Goal Setting',
      'Entrepreneurship',
      'Decision Making',
    ]);
  });

  it('are the seven areas with about 100 distinct traits in all', () => {
    expect(skillAreas.map((a) => a.name)).toEqual([
      'Attitude',
      'Communication',
      'Critical Thinking',
      'Emotional Intelligence',
      'Execution',
      'Leadership',
      'Relationship',
    ]);
    const traits = skillAreas.flatMap((a) => a.traits);
    expect(traits.length).toBeGreaterThanOrEqual(95);
    expect(traits.length).toBeLessThanOrEqual(105);
    expect(new Set(traits).size).toBe(traits.length);
    for (const area of skillAreas) expect(area.traits.length).toBeGreaterThanOrEqual(12);
  });
});

describe('pages and links', () => {
  it('give every page a unique address, title and a 70-160 character description', () => {
    expect(new Set(pageList.map((p) => p.path)).size).toBe(pageList.length);
    expect(new Set(pageList.map((p) => p.title)).size).toBe(pageList.length);
    for (const page of pageList) {
      expect(page.description.length, page.path).toBeGreaterThanOrEqual(70);
      expect(page.description.length, page.path).toBeLessThanOrEqual(160);
    }
  });

  it('cover every public page of spec §2 that is static', () => {
    expect(pageList.map((p) => p.path).sort()).toEqual(
      [
        '/',
        '/faqs',
        '/howitworks',
        '/howitworks/setup',
        '/howitworks/shop',
        '/howitworks/upload',
        '/pricing',
        '/privacy',
        '/terms',
      ].sort(),
    );
  });

  it('have the footer links of spec §2 in its order', () => {
    expect(footerLinks.map((l) => l.label)).toEqual([
      'Terms of Use',
      'Privacy Policy',
      'Pricing',
      'How It Works',
      'FAQS',
      'Contact Us',
    ]);
  });

  const spaRoutes = ['/support', '/subscribe', '/register', '/login'];
  const anchorsOf: Record<string, Set<string>> = {
    [pages.terms.path]: new Set(terms.sections.map((s) => s.id)),
    [pages.privacy.path]: new Set(privacy.sections.map((s) => s.id)),
    [pages.faqs.path]: new Set([
      'about',
      'skills',
      'questions',
      'contact',
      ...faqs.map((f) => f.id),
      ...skillAreas.map((a) => a.id),
    ]),
    [pages.howItWorksSetup.path]: new Set(guide[0]?.sections.map((s) => s.id)),
  };
  const knownPaths = new Set([...pageList.map((p) => p.path), ...spaRoutes]);

  function checkLink(href: string, onPage: string) {
    const [path = '', anchor] = href.split('#');
    const target = path === '' ? onPage : path;
    expect(knownPaths.has(target), `${href} (on ${onPage})`).toBe(true);
    if (anchor) expect(anchorsOf[target]?.has(anchor), `${href} (on ${onPage})`).toBe(true);
  }
  const linksIn = (text: string) =>
    parseInline(text).flatMap((part) => (part.kind === 'link' ? [part.href] : []));

  it('lead somewhere that exists, anchors included', () => {
    const sources: Array<[string, string]> = [
      ...faqText.split('\n').map((t): [string, string] => [t, pages.faqs.path]),
      ...about.map((t): [string, string] => [t, pages.faqs.path]),
      ...guideText.split('\n').map((t): [string, string] => [t, pages.howItWorks.path]),
      ...legalText(terms)
        .split('\n')
        .map((t): [string, string] => [t, pages.terms.path]),
      ...legalText(privacy)
        .split('\n')
        .map((t): [string, string] => [t, pages.privacy.path]),
      [pricing.fees.more, pages.pricing.path],
    ];
    let count = 0;
    for (const [text, onPage] of sources) {
      for (const href of linksIn(text)) {
        checkLink(href, onPage);
        count++;
      }
    }
    expect(count).toBeGreaterThan(10);
    for (const link of [...headerLinks, ...footerLinks]) checkLink(link.href, '/');
    checkLink(landing.skillsSection.more.href, '/');
  });

  it('contain no placeholder text', () => {
    expect(plainText(everyCopy)).not.toMatch(/lorem|ipsum|TODO|TBD|\[company\]|coming soon/i);
  });
});
