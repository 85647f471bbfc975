/**
 * The pre-rendered public pages, by key of content/pages.ts. The build renders
 * each to HTML (static/render.tsx); the SPA loads this module lazily, as one
 * chunk, for in-app navigation and for `npm run dev`.
 */
import type { ReactElement } from 'react';
import type { PageKey } from '../content/pages';
import { FaqsPage } from './faqs/FaqsPage';
import { HowItWorksPage } from './howitworks/HowItWorksPage';
import { LandingPage } from './landing/LandingPage';
import { PrivacyPage, TermsPage } from './legal/LegalPage';
import { PricingPage } from './pricing/PricingPage';

export const publicPageElements: Record<PageKey, () => ReactElement> = {
  landing: () => <LandingPage />,
  pricing: () => <PricingPage />,
  faqs: () => <FaqsPage />,
  howItWorks: () => <HowItWorksPage />,
  howItWorksSetup: () => <HowItWorksPage part="setup" />,
  howItWorksShop: () => <HowItWorksPage part="shop" />,
  howItWorksUpload: () => <HowItWorksPage part="upload" />,
  terms: () => <TermsPage />,
  privacy: () => <PrivacyPage />,
};

/** For the SPA's router: one lazily loaded component per page. */
export function PublicPage({ page }: { page: PageKey }) {
  return publicPageElements[page]();
}
