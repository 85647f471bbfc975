/**
 * Site-wide copy and links for the public pages. The social and blog addresses
 * are placeholders until the product owner names the real accounts.
 */

export const PRODUCT_NAME = 'Learning Budget';

export const PRODUCT_TAGLINE = 'Give every employee a monthly learning budget on a virtual prepaid card.';

export interface SiteLink {
  label: string;
  href: string;
}

/** Page links in the header (the account buttons are separate; see PublicHeader). */
export const headerLinks: readonly SiteLink[] = [
  { label: 'How It Works', href: '/howitworks' },
  { label: 'Pricing', href: '/pricing' },
  { label: 'FAQs', href: '/faqs' },
  { label: 'Contact Us', href: '/support' },
];

/** Footer links (spec §2 "Footer"), in the spec's order. */
export const footerLinks: readonly SiteLink[] = [
  { label: 'Terms of Use', href: '/terms' },
  { label: 'Privacy Policy', href: '/privacy' },
  { label: 'Pricing', href: '/pricing' },
  { label: 'How It Works', href: '/howitworks' },
  { label: 'FAQS', href: '/faqs' },
  { label: 'Contact Us', href: '/support' },
];

/** External, placeholder addresses (see the note at the top). */
export const socialLinks: readonly SiteLink[] = [
  { label: 'LinkedIn', href: 'https://www.linkedin.com/' },
  { label: 'Twitter', href: 'https://twitter.com/' },
  { label: 'Facebook', href: 'https://www.facebook.com/' },
];

export const blogLink: SiteLink = { label: 'Blog', href: 'https://medium.com/' };
