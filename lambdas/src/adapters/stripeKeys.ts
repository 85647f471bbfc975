/**
 * Stripe's two keys: the API key (the SDK client, adapters/stripe.ts) and the
 * webhook signing secret (adapters/stripeSignature.ts). Apart from the SDK so
 * the authorization webhook, which needs only the signing secret, does not
 * bundle the Stripe client (docs/decisions.md "The authorization bundle").
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { awsConfig, stripeConfig } from '../platform/config';

export type StripeKey = 'secretKey' | 'webhookSecret';

/** Where each key comes from: the environment locally, else the secret its ARN names. */
const SOURCES = {
  secretKey: { value: 'STRIPE_SECRET_KEY', secretArn: 'STRIPE_API_KEY_SECRET_ARN' },
  webhookSecret: { value: 'STRIPE_WEBHOOK_SECRET', secretArn: 'STRIPE_WEBHOOK_SECRET_ARN' },
} as const;

const keyPromises: Partial<Record<StripeKey, Promise<string>>> = {};

async function loadKey(key: StripeKey): Promise<string> {
  const config = stripeConfig();
  const source = SOURCES[key];
  const direct = config[source.value];
  if (direct) return direct;
  const arn = config[source.secretArn];
  if (!arn) throw new Error(`Configuration (stripe): set ${source.secretArn} or ${source.value}`);
  const secrets = new SecretsManagerClient({ region: awsConfig().AWS_REGION });
  const value = (await secrets.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString?.trim();
  if (!value) throw new Error(`The secret named by ${source.secretArn} is empty`);
  return value;
}

/**
 * Each key is read once per container (a cold start), never on every call, and
 * only when used: a function given the API key alone never asks for the other.
 */
export function readStripeKey(key: StripeKey): Promise<string> {
  keyPromises[key] ??= loadKey(key).catch((error) => {
    keyPromises[key] = undefined;
    throw error;
  });
  return keyPromises[key];
}
