/**
 * Per test file: a fresh table on the shared DynamoDB Local, the environment the
 * handlers read (as Lambda would give it), and the local gateway serving the
 * real handlers on a free port. Requests go over real HTTP, as from a browser.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { CreateTableCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { prefixedLog } from '../../infra/local/processes';
import type { StripeEmulator } from '../../infra/local/stripe';
import { createTableInput, type IndexName, tableSpec } from '../../lambdas/src/data/tableSpec';

import { TEST_RECEIPTS_BUCKET, TEST_WEB_ORIGIN } from './integrationConstants';

export { TEST_RECEIPTS_BUCKET, TEST_WEB_ORIGIN };

/**
 * The local gateway in tests takes the client's address from this header, so
 * each request can come from its own simulated client and per-client rate
 * limits only bite where a test means them to (pass a fixed `clientIp`).
 */
export const CLIENT_IP_HEADER = 'x-simulated-client-ip';

/**
 * Each test file has its own copy of this module, so a counter from 1 would
 * hand every file the same addresses, and files run one after another against
 * one e2e stack would add up on them (ten sign-ups an hour per client). A
 * random start per file keeps the files' addresses apart.
 */
let nextClient = randomInt(1, 1 << 23);
/** A fresh client address for each call: 10.x.y.z, never repeated in a file. */
export function newClientIp(): string {
  const n = nextClient++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
export const TEST_SUPPORT_INBOX = 'support@learningbudget.test';
export const TEST_STRIPE_SECRET_KEY = 'sk_test_integration';
export const TEST_WEBHOOK_SECRET = 'whsec_integration';

export interface IntegrationStack {
  apiUrl: string;
  /** s3rver, holding the receipts bucket TEST_RECEIPTS_BUCKET. */
  s3Endpoint: string;
  /** Present when started with `{ stripe: true }`. */
  stripe?: StripeEmulator;
  tableName: string;
  doc: DynamoDBDocumentClient;
  getItem(key: { pk: string; sk: string }): Promise<Record<string, unknown> | undefined>;
  queryIndex(index: IndexName, pk: string): Promise<Record<string, unknown>[]>;
  mailbox: Mailbox;
  stop(): Promise<void>;
}

export interface StoredEmail {
  messageId: string;
  from: string;
  replyTo?: string[];
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  /** Headers the sender added (SES v2 `Content.Simple.Headers`), as the stand-in keeps them. */
  headers?: { name: string; value: string }[];
  at: number;
}

export class Mailbox {
  constructor(readonly endpoint: string) {}

  async all(): Promise<StoredEmail[]> {
    const response = await fetch(`${this.endpoint}/store`);
    return ((await response.json()) as { emails: StoredEmail[] }).emails;
  }

  /** E-mails stored at or after `epochSeconds` (the stand-in's own stamp, real time in whole seconds). */
  async since(epochSeconds: number): Promise<StoredEmail[]> {
    const response = await fetch(`${this.endpoint}/store?since=${Math.floor(epochSeconds)}`);
    return ((await response.json()) as { emails: StoredEmail[] }).emails;
  }

  /** E-mails to one address (tests use unique addresses, so the shared mailbox is safe). */
  async to(address: string): Promise<StoredEmail[]> {
    return (await this.all()).filter((e) => e.destination.to.includes(address));
  }
}

export interface IntegrationOptions {
  /** Start a Stripe emulator for this file, its webhooks pointed at this file's gateway. */
  stripe?: boolean;
  /** The emulator's clock (ms), to let days pass for it, e.g. beyond its 24-hour idempotency keys. */
  stripeClock?: () => number;
  /** How long the emulator waits for an authorization decision (Stripe: 2 s); for tests not about latency on a busy machine. */
  authorizationTimeoutMs?: number;
}

export async function startIntegrationStack(options: IntegrationOptions = {}): Promise<IntegrationStack> {
  const dynamodbEndpoint = inject('dynamodbEndpoint');
  const cognito = inject('cognito');
  const sesEndpoint = inject('sesEndpoint');
  const s3Endpoint = inject('s3Endpoint');
  const tableName = `test-${randomUUID()}`;

  const raw = new DynamoDBClient({
    endpoint: dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await raw.send(new CreateTableCommand(createTableInput(tableName)));
  await raw.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableSpec.ttlAttribute, Enabled: true },
    }),
  );
  const doc = DynamoDBDocumentClient.from(raw);

  Object.assign(process.env, {
    STAGE: 'local',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    SES_ENDPOINT: sesEndpoint,
    S3_ENDPOINT: s3Endpoint,
    RECEIPTS_BUCKET: TEST_RECEIPTS_BUCKET,
    MAIL_FROM: 'Learning Budget <no-reply@learningbudget.test>',
    SUPPORT_INBOX: TEST_SUPPORT_INBOX,
    COGNITO_ISSUER: cognito.issuer,
    COGNITO_CLIENT_ID: cognito.clientId,
    COGNITO_WEB_CLIENT_ID: cognito.webClientId,
    COGNITO_USER_POOL_ID: cognito.userPoolId,
    COGNITO_ENDPOINT: cognito.endpoint,
    WEB_ORIGIN: TEST_WEB_ORIGIN,
    LOG_LEVEL: 'error',
    // EMF metric lines (platform/metrics.ts) stay out of test output; observability.test.ts turns them on.
    POWERTOOLS_METRICS_DISABLED: 'true',
    STRIPE_SECRET_KEY: TEST_STRIPE_SECRET_KEY,
    // Each file's own key for sealing factor secrets, as each deployment has its own.
    FACTOR_KEY: randomUUID(),
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
  });

  let stripe: StripeEmulator | undefined;
  if (options.stripe) {
    const { startStripeEmulator } = await import('../../infra/local/stripe');
    stripe = await startStripeEmulator({
      port: 0,
      log: prefixedLog('stripe', true),
      webhookSecret: TEST_WEBHOOK_SECRET,
      // Tests say when Stripe's expiry of uncaptured holds runs (`admin.expireDue()`, or travel's
      // catch-up), so no timer of the machine's decides what a test sees.
      expiryCheckMs: false,
      ...(options.stripeClock ? { clock: options.stripeClock } : {}),
      ...(options.authorizationTimeoutMs ? { authorizationTimeoutMs: options.authorizationTimeoutMs } : {}),
    });
    process.env.STRIPE_API_URL = stripe.url;
  }

  // Imported only now: the handlers read the environment set above.
  const { startGateway } = await import('../../infra/local/gateway');
  const gateway = await startGateway({
    port: 0,
    allowedOrigins: [TEST_WEB_ORIGIN],
    log: prefixedLog('api', true),
    simulatedClientIpHeader: CLIENT_IP_HEADER,
  });

  stripe?.setWebhook(`${gateway.url}/webhooks/stripe`, TEST_WEBHOOK_SECRET);

  return {
    apiUrl: gateway.url,
    s3Endpoint,
    stripe,
    tableName,
    doc,
    getItem: async (key) => (await doc.send(new GetCommand({ TableName: tableName, Key: key }))).Item,
    queryIndex: async (index, pk) => {
      const spec = tableSpec.globalIndexes.find((i) => i.name === index);
      if (!spec) throw new Error(`no index ${index}`);
      const result = await doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': spec.partitionKey },
          ExpressionAttributeValues: { ':pk': pk },
        }),
      );
      return result.Items ?? [];
    },
    mailbox: new Mailbox(sesEndpoint),
    stop: async () => {
      await stripe?.stop();
      await gateway.stop();
      raw.destroy();
    },
  };
}

/** POST JSON to the API and return status, headers and parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CLIENT_IP_HEADER]: newClientIp(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
