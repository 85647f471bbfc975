/**
 * Seals second-factor secrets (issue 24, attack 11). A TOTP secret in the
 * table is readable by every function with table read; sealed with this key,
 * it is readable only by the functions given the key: those that check or set
 * codes (the route table's `factorKey` capability). AES-256-GCM, with the
 * user's id as additional data, so a sealed secret copied onto another
 * account does not open there.
 *
 * The key is a random string kept in Secrets Manager (in AWS; its ARN in
 * FACTOR_KEY_SECRET_ARN), or the local stack's own value (FACTOR_KEY), the
 * way the Stripe keys come (adapters/stripeKeys.ts); everything after
 * reading it is the same code. Sealed values carry a version prefix, so a
 * new key can be introduced beside the old one.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { awsConfig, factorKeyConfig } from '../platform/config';

const VERSION = 'fk1';
const INFO = 'learning-budget second-factor secrets v1';

let keyPromise: Promise<Buffer> | undefined;

async function loadKeyMaterial(): Promise<string> {
  const { FACTOR_KEY, FACTOR_KEY_SECRET_ARN } = factorKeyConfig();
  if (FACTOR_KEY) return FACTOR_KEY;
  if (!FACTOR_KEY_SECRET_ARN)
    throw new Error('Configuration (factorKey): set FACTOR_KEY_SECRET_ARN or FACTOR_KEY');
  const secrets = new SecretsManagerClient({ region: awsConfig().AWS_REGION });
  const value = (await secrets.send(new GetSecretValueCommand({ SecretId: FACTOR_KEY_SECRET_ARN })))
    .SecretString;
  if (!value || value.length < 32) throw new Error('The secret named by FACTOR_KEY_SECRET_ARN is too short');
  return value;
}

/** Read once per container; the 256-bit AES key is derived from the stored string (HKDF-SHA256). */
function key(): Promise<Buffer> {
  keyPromise ??= loadKeyMaterial()
    .then((material) => Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), INFO, 32)))
    .catch((error) => {
      keyPromise = undefined;
      throw error;
    });
  return keyPromise;
}

const additionalData = (userId: string) => Buffer.from(`totp:${userId}`);

export function isSealed(value: string): boolean {
  return value.startsWith(`${VERSION}.`);
}

export async function sealSecret(userId: string, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(), iv);
  cipher.setAAD(additionalData(userId));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/**
 * The secret a sealed value holds. A value stored before sealing (plain
 * base32) is answered as it is: the caller seals it on its next write.
 * Throws when the value was sealed for another user or altered.
 */
export async function openSecret(userId: string, stored: string): Promise<string> {
  if (!isSealed(stored)) return stored;
  const [, iv = '', tag = '', body = ''] = stored.split('.');
  const decipher = createDecipheriv('aes-256-gcm', await key(), Buffer.from(iv, 'base64url'));
  decipher.setAAD(additionalData(userId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
