/**
 * The security headers the web app is served with. CloudFront's response
 * headers policy and the local web server are both built from this, so the
 * browser enforces the same policy locally as in AWS.
 */
export interface CspSources {
  /** Origins the app calls with fetch: the API, Cognito. */
  connect: string[];
  /** Origins images come from besides the app itself: the receipts bucket. */
  img: string[];
  /** Origins allowed in frames: the card issuer's card-details frame. */
  frame: string[];
  /** Origins scripts come from besides the app itself: Stripe.js for Issuing Elements (AWS only). */
  script: string[];
  /** Add upgrade-insecure-requests (not on plain-http localhost). */
  upgradeInsecure: boolean;
}

export function contentSecurityPolicy(sources: CspSources): string {
  const list = (extra: string[]) => ["'self'", ...extra].join(' ');
  return [
    "default-src 'self'",
    `script-src ${list(sources.script)}`,
    // Inline style attributes are used by the component library; no inline scripts are allowed.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${list(['data:', 'blob:', ...sources.img])}`,
    "font-src 'self' data:",
    `connect-src ${list(sources.connect)}`,
    `frame-src ${sources.frame.length > 0 ? sources.frame.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(sources.upgradeInsecure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

export const HSTS_MAX_AGE_SECONDS = 63_072_000; // two years

/** The non-CSP headers, as name -> value (CloudFront sets each through its typed policy). */
export const staticSecurityHeaders = {
  'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains; preload`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
} as const;
