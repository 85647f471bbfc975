/**
 * Ports and folders of the local stack. Every port can be changed with an
 * environment variable; everything binds to 127.0.0.1.
 */
export interface LocalPorts {
  web: number;
  api: number;
  dynamodb: number;
  cognito: number;
  s3: number;
  ses: number;
  stripe: number;
}

export const defaultPorts: LocalPorts = {
  web: 3000,
  api: 3001,
  ses: 3002,
  s3: 3003,
  stripe: 3004,
  dynamodb: 8000,
  cognito: 9229,
};

const envNames: Record<keyof LocalPorts, string> = {
  web: 'LOCAL_WEB_PORT',
  api: 'LOCAL_API_PORT',
  ses: 'LOCAL_MAIL_PORT',
  s3: 'LOCAL_S3_PORT',
  stripe: 'LOCAL_STRIPE_PORT',
  dynamodb: 'LOCAL_DYNAMODB_PORT',
  cognito: 'LOCAL_COGNITO_PORT',
};

export function portsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalPorts {
  const ports = { ...defaultPorts };
  for (const key of Object.keys(envNames) as (keyof LocalPorts)[]) {
    const raw = env[envNames[key]];
    if (raw === undefined || raw === '') continue;
    const port = Number(raw);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`${envNames[key]}=${raw} is not a port number`);
    }
    ports[key] = port;
  }
  return ports;
}

export const portEnvNames = envNames;

export const LOCAL_TABLE_NAME = 'learning-budget-local';
export const LOCAL_RECEIPTS_BUCKET = 'learning-budget-receipts';
export const LOCAL_MAIL_FROM = 'Learning Budget <no-reply@learningbudget.local>';
export const LOCAL_SUPPORT_INBOX = 'support@learningbudget.local';

/** Local-only Stripe keys for the emulator: not secrets, never valid at Stripe. */
export const LOCAL_STRIPE_SECRET_KEY = 'sk_test_local_emulator';
export const LOCAL_STRIPE_PUBLISHABLE_KEY = 'pk_test_local_emulator';
export const LOCAL_STRIPE_WEBHOOK_SECRET = 'whsec_local_emulator';

/** The local stack's own key for sealing second-factor secrets (adapters/factorKey.ts): not a secret, local only. */
export const LOCAL_FACTOR_KEY = 'local-factor-key-for-this-machine-only';
