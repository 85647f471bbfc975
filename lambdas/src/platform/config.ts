/**
 * Environment, parsed once per concern on first use. A missing or malformed
 * variable fails fast with its name (never its value: some are secrets). Each
 * Lambda only reads the groups it needs, so a function without e-mail rights
 * is not forced to carry e-mail settings.
 *
 * zod's "mini" build, not the full one: every function imports this file, and
 * the full build alone was 440 KB of the authorization webhook's 1.1 MB bundle
 * (docs/decisions.md "The authorization bundle"); mini tree-shakes to the few
 * checks used here. Mini has no English messages, so problemOf words them.
 */
import * as z from 'zod/mini';

type Shape = Record<string, z.ZodMiniType>;

/** One line per problem: the variable and what is wrong with it. */
function problemOf(issue: z.core.$ZodIssue): string {
  const name = issue.path.join('.');
  if (process.env[name] === undefined) return `${name}: missing`;
  if (issue.code === 'invalid_format') return `${name}: not a valid ${issue.format}`;
  if (issue.code === 'too_small') return `${name}: shorter than ${issue.minimum} characters`;
  return `${name}: invalid`;
}

function group<S extends Shape>(name: string, shape: S): () => z.infer<z.ZodMiniObject<S>> {
  let parsed: z.infer<z.ZodMiniObject<S>> | undefined;
  return () => {
    if (parsed) return parsed;
    const result = z.object(shape).safeParse(process.env);
    if (!result.success) {
      const problems = result.error.issues.map(problemOf).join('; ');
      throw new Error(`Configuration (${name}) is invalid: ${problems}`);
    }
    parsed = result.data;
    return parsed;
  };
}

const text = (minLength = 1) => z.string().check(z.minLength(minLength));
const optionalUrl = z.optional(z.url());

export const awsConfig = group('aws', {
  AWS_REGION: z._default(text(), 'us-east-1'),
});

export const tableConfig = group('table', {
  TABLE_NAME: text(),
  /** Set only locally (DynamoDB Local). */
  DYNAMODB_ENDPOINT: optionalUrl,
});

export const mailConfig = group('mail', {
  MAIL_FROM: text(3),
  SUPPORT_INBOX: z.email(),
  /** Where reconciliation reports differences between the ledger and Stripe; the support inbox when unset. */
  OPERATIONS_INBOX: z.optional(z.email()),
  /** Set only locally (the SES stand-in). */
  SES_ENDPOINT: optionalUrl,
});

export const authConfig = group('auth', {
  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>` in AWS; cognito-local's URL locally. */
  COGNITO_ISSUER: z.url(),
  /** The confidential client the API signs people in with. */
  COGNITO_CLIENT_ID: text(),
  /** The public client of the hosted UI (social sign-in): its tokens are accepted too. */
  COGNITO_WEB_CLIENT_ID: z.optional(z.string()),
  /** Where the JWKS lives; defaults to `<issuer>/.well-known/jwks.json`. */
  COGNITO_JWKS_URI: optionalUrl,
});

/** Whether social sign-in is switched on here (its hosted UI is configured); it is off locally. */
export function socialSignInEnabled(): boolean {
  return Boolean(process.env.COGNITO_OAUTH_URL);
}

/**
 * Social sign-in (Google, Facebook through Cognito's hosted UI), set only when
 * it is switched on. The API, not the browser, exchanges the hosted UI's code
 * for tokens (POST /auth/social), on the public web client with PKCE.
 */
export const socialSignInConfig = group('socialSignIn', {
  /** The hosted UI's base URL, `https://<prefix>.auth.<region>.amazoncognito.com`; its token endpoint is `/oauth2/token`. */
  COGNITO_OAUTH_URL: z.url(),
  /** The callback the browser was sent back to (config.json `oauthRedirect`); the exchange must name it again. */
  OAUTH_REDIRECT_URL: z.url(),
  /** The public client the code was issued to. */
  COGNITO_WEB_CLIENT_ID: text(),
});

export const webConfig = group('web', {
  /** The SPA's origin, for links in e-mails. */
  WEB_ORIGIN: z.url(),
});

/** Test-only and local-only hooks are off unless this says `local`. */
export const stageConfig = group('stage', {
  STAGE: z._default(z.string(), 'aws'),
});

/**
 * Where Cognito is, for code that has no user-pool settings of its own (the
 * pre-sign-up trigger takes the pool from its event): set only locally.
 */
export const cognitoEndpointConfig = group('cognitoEndpoint', {
  COGNITO_ENDPOINT: optionalUrl,
});

export const userPoolConfig = group('userPool', {
  COGNITO_USER_POOL_ID: text(),
  /** The confidential client: every password and refresh call carries its SECRET_HASH. */
  COGNITO_CLIENT_ID: text(),
  /** Set only locally (cognito-local). */
  COGNITO_ENDPOINT: optionalUrl,
});

/**
 * Stripe. In AWS each key is its own Secrets Manager secret (plain text), named
 * by an ARN only the functions that need it are given: the API key
 * (STRIPE_API_KEY_SECRET_ARN) and the webhook signing secret
 * (STRIPE_WEBHOOK_SECRET_ARN, the webhook function only). Locally both keys come
 * straight from the environment, with STRIPE_API_URL pointing the SDK at the
 * local emulator.
 */
export const stripeConfig = group('stripe', {
  STRIPE_API_KEY_SECRET_ARN: z.optional(z.string()),
  STRIPE_WEBHOOK_SECRET_ARN: z.optional(z.string()),
  STRIPE_SECRET_KEY: z.optional(z.string()),
  STRIPE_WEBHOOK_SECRET: z.optional(z.string()),
  /** Set only locally: the emulator's base URL. */
  STRIPE_API_URL: optionalUrl,
});

/**
 * The key that seals second-factor secrets (adapters/factorKey.ts): given only
 * to the functions that check or set codes. Locally the value itself; in AWS
 * the secret its ARN names.
 */
export const factorKeyConfig = group('factorKey', {
  FACTOR_KEY_SECRET_ARN: z.optional(z.string()),
  FACTOR_KEY: z.optional(text(16)),
});

/** Set in AWS only: the value CloudFront sends to prove a request came through it (platform/edge.ts). */
export const edgeConfig = group('edge', {
  EDGE_ORIGIN_SECRET: z.optional(text(16)),
});

export const receiptsConfig = group('receipts', {
  RECEIPTS_BUCKET: text(),
  /** Set only locally (s3rver); path-style addressing then. */
  S3_ENDPOINT: optionalUrl,
});

/**
 * Set only outside Lambda (the local scheduler, time travel, the bench): how
 * long a job run may take, in ms, as Lambda's timeout would allow; a Lambda
 * reads its remaining time from its context instead (platform/job.ts).
 */
export const jobConfig = group('job', {
  JOB_TIME_BUDGET_MS: z.optional(z.string().check(z.regex(/^[1-9]\d*$/))),
});
