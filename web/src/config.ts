/**
 * Runtime configuration. The same build runs locally and on AWS: whoever serves
 * the app (the CDK web stack, or the local stack) puts a /config.json beside
 * index.html, and the app reads it once at start.
 *
 * The check is hand-written on purpose: zod would add ~15 KB to the JavaScript
 * every public page loads, and this shape is small.
 */

export interface AppConfig {
  stage: 'local' | 'aws';
  /** Base URL of the HTTP API, without a trailing slash. */
  apiUrl: string;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Local Cognito stand-in; absent on AWS. */
  cognitoEndpoint?: string;
  /** Local SES stand-in's inbox, for the demo; absent on AWS. */
  mailboxUrl?: string;
  /** Social sign-in buttons to offer (decisions.md: Google and Facebook only); absent = none. */
  socialProviders?: SocialProvider[];
  /** Cognito hosted domain for the social redirect, e.g. `app.auth.us-east-1.amazoncognito.com`. */
  oauthDomain?: string;
  /** Where Cognito sends the browser back after social sign-in (`https://<web origin>/auth/callback`). */
  oauthRedirect?: string;
  /**
   * The card provider's tokenizer, for the card forms: the browser sends the card
   * there with the publishable key and only the token to our API. Locally the
   * Stripe emulator; on AWS `https://api.stripe.com`. Absent = card forms say so.
   */
  stripe?: StripeConfig;
}

export interface StripeConfig {
  /** `pk_test_...` or `pk_live_...`: can make tokens, nothing else. */
  publishableKey: string;
  /** Base URL of the Stripe API, without a trailing slash. */
  apiUrl: string;
}

export const SOCIAL_PROVIDERS = ['Google', 'Facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const CONFIG_URL = '/config.json';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function requiredString(source: Record<string, unknown>, key: keyof AppConfig): string {
  const value = source[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigError(`config.json: "${key}" must be a non-empty string`);
  }
  return value.trim();
}

function optionalString(source: Record<string, unknown>, key: keyof AppConfig): string | undefined {
  const value = source[key];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ConfigError(`config.json: "${key}" must be a string`);
  return value.trim();
}

/** Checks the shape of config.json; throws ConfigError naming the first bad key. */
export function parseConfig(value: unknown): AppConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError('config.json must hold a JSON object');
  }
  const source = value as Record<string, unknown>;
  const stage = source.stage;
  if (stage !== 'local' && stage !== 'aws') {
    throw new ConfigError('config.json: "stage" must be "local" or "aws"');
  }
  const config: AppConfig = {
    stage,
    apiUrl: requiredString(source, 'apiUrl').replace(/\/+$/, ''),
    region: requiredString(source, 'region'),
    userPoolId: requiredString(source, 'userPoolId'),
    userPoolClientId: requiredString(source, 'userPoolClientId'),
  };
  const cognitoEndpoint = optionalString(source, 'cognitoEndpoint');
  if (cognitoEndpoint) config.cognitoEndpoint = cognitoEndpoint;
  const mailboxUrl = optionalString(source, 'mailboxUrl');
  if (mailboxUrl) config.mailboxUrl = mailboxUrl;
  const providers = source.socialProviders;
  if (providers !== undefined && providers !== null) {
    if (
      !Array.isArray(providers) ||
      providers.some((p) => !(SOCIAL_PROVIDERS as readonly unknown[]).includes(p))
    ) {
      throw new ConfigError(
        `config.json: "socialProviders" must be a list of ${SOCIAL_PROVIDERS.join(', ')}`,
      );
    }
    if (providers.length > 0) config.socialProviders = [...new Set(providers as SocialProvider[])];
  }
  const oauthDomain = optionalString(source, 'oauthDomain');
  if (oauthDomain) config.oauthDomain = oauthDomain;
  const oauthRedirect = optionalString(source, 'oauthRedirect');
  if (oauthRedirect) config.oauthRedirect = oauthRedirect;
  const stripe = parseStripe(source.stripe);
  if (stripe) config.stripe = stripe;
  return config;
}

function parseStripe(value: unknown): StripeConfig | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigError('config.json: "stripe" must be an object');
  }
  const { publishableKey, apiUrl } = value as Record<string, unknown>;
  // A secret key here would be handed to every visitor: refuse anything but a publishable one.
  if (typeof publishableKey !== 'string' || !/^pk_(test|live)_\w+$/.test(publishableKey.trim())) {
    throw new ConfigError('config.json: "stripe.publishableKey" must be a publishable key (pk_...)');
  }
  if (typeof apiUrl !== 'string' || !/^https?:\/\/[^\s/]+\/?$/.test(apiUrl.trim())) {
    throw new ConfigError('config.json: "stripe.apiUrl" must be an http(s) origin');
  }
  return { publishableKey: publishableKey.trim(), apiUrl: apiUrl.trim().replace(/\/+$/, '') };
}

/** The social providers to offer: only when the redirect can work (providers, domain and return address). */
export function socialSignInProviders(config: AppConfig | undefined): SocialProvider[] {
  if (!config?.oauthDomain || !config.oauthRedirect) return [];
  return config.socialProviders ?? [];
}

let pending: Promise<AppConfig> | undefined;
let loaded: AppConfig | undefined;

async function fetchConfig(url: string): Promise<AppConfig> {
  let response: Response;
  try {
    // no-store: a new deployment may change the API address under the same URL.
    response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch (error) {
    throw new ConfigError(`Could not fetch ${url}`, { cause: error });
  }
  if (!response.ok) throw new ConfigError(`Could not fetch ${url}: HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new ConfigError(`${url} is not valid JSON`, { cause: error });
  }
  return parseConfig(body);
}

/**
 * Fetches /config.json once and memoizes it. Called at start (main.tsx) so the
 * request runs while the page renders; callers that need the config await it.
 * A failure is not cached, so a later call tries again.
 */
export function loadConfig(url: string = CONFIG_URL): Promise<AppConfig> {
  pending ??= fetchConfig(url).then(
    (config) => {
      loaded = config;
      return config;
    },
    (error: unknown) => {
      pending = undefined;
      throw error;
    },
  );
  return pending;
}

/** The config, if it has loaded; for code that can do without it (e.g. a demo mailbox link). */
export function currentConfig(): AppConfig | undefined {
  return loaded;
}
