/**
 * Environment, parsed once per concern on first use. A missing or malformed
 * variable fails fast with its name. Each Lambda only reads the groups it needs,
 * so a function without e-mail rights is not forced to carry e-mail settings.
 */
import { z } from 'zod';

function group<S extends z.ZodRawShape>(name: string, shape: S): () => z.infer<z.ZodObject<S>> {
  let parsed: z.infer<z.ZodObject<S>> | undefined;
  return () => {
    if (parsed) return parsed;
    const result = z.object(shape).safeParse(process.env);
    if (!result.success) {
      const missing = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Configuration (${name}) is invalid: ${missing}`);
    }
    parsed = result.data;
    return parsed;
  };
}

const optionalUrl = z.url().optional();

export const awsConfig = group('aws', {
  AWS_REGION: z.string().min(1).default('us-east-1'),
});

export const tableConfig = group('table', {
  TABLE_NAME: z.string().min(1),
  /** Set only locally (DynamoDB Local). */
  DYNAMODB_ENDPOINT: optionalUrl,
});

export const mailConfig = group('mail', {
  MAIL_FROM: z.string().min(3),
  SUPPORT_INBOX: z.email(),
  /** Where reconciliation reports differences between the ledger and Stripe; the support inbox when unset. */
  OPERATIONS_INBOX: z.email().optional(),
  /** Set only locally (the SES stand-in). */
  SES_ENDPOINT: optionalUrl,
});

export const authConfig = group('auth', {
  /** `https://cognito-idp.<region>.amazonaws.com/<poolId>` in AWS; cognito-local's URL locally. */
  COGNITO_ISSUER: z.url(),
  /** The confidential client the API signs people in with. */
  COGNITO_CLIENT_ID: z.string().min(1),
  /** The public client of the hosted UI (social sign-in): its tokens are accepted too. */
  COGNITO_WEB_CLIENT_ID: z.string().optional(),
  /** Where the JWKS lives; defaults to `<issuer>/.well-known/jwks.json`. */
  COGNITO_JWKS_URI: optionalUrl,
});

export const webConfig = group('web', {
  /** The SPA's origin, for links in e-mails. */
  WEB_ORIGIN: z.url(),
});

/** Test-only and local-only hooks are off unless this says `local`. */
export const stageConfig = group('stage', {
  STAGE: z.string().default('aws'),
});

export const userPoolConfig = group('userPool', {
  COGNITO_USER_POOL_ID: z.string().min(1),
  /** The confidential client: every password and refresh call carries its SECRET_HASH. */
  COGNITO_CLIENT_ID: z.string().min(1),
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
  STRIPE_API_KEY_SECRET_ARN: z.string().optional(),
  STRIPE_WEBHOOK_SECRET_ARN: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Set only locally: the emulator's base URL. */
  STRIPE_API_URL: optionalUrl,
});

/** Set in AWS only: the value CloudFront sends to prove a request came through it (platform/edge.ts). */
export const edgeConfig = group('edge', {
  EDGE_ORIGIN_SECRET: z.string().min(16).optional(),
});

export const receiptsConfig = group('receipts', {
  RECEIPTS_BUCKET: z.string().min(1),
  /** Set only locally (s3rver); path-style addressing then. */
  S3_ENDPOINT: optionalUrl,
});
