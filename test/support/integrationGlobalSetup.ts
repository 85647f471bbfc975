/**
 * Integration tests share one DynamoDB Local (in memory), one cognito-local and
 * one SES stand-in, started here once. Each test file makes its own table and
 * its own gateway (see integrationStack.ts), so files never see each other's data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startCognito } from '../../infra/local/cognito';
import { startDynamoDb } from '../../infra/local/dynamodb';
import { prefixedLog } from '../../infra/local/processes';
import { startS3 } from '../../infra/local/s3';
import { startSes } from '../../infra/local/ses';
import { TEST_RECEIPTS_BUCKET, TEST_WEB_ORIGIN } from './integrationConstants';
import { freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    sesEndpoint: string;
    /** s3rver with the one receipts bucket; keys carry team ids, so files do not collide. */
    s3Endpoint: string;
    cognito: {
      endpoint: string;
      userPoolId: string;
      clientId: string;
      clientSecret: string;
      webClientId: string;
      issuer: string;
    };
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'lb-integration-'));
  const quiet = prefixedLog('test', true);
  const [dynamodb, cognito, ses, s3] = await Promise.all([
    freePort().then((port) => startDynamoDb({ port, log: quiet })),
    freePort().then((port) => startCognito({ port, dataDir: join(dir, 'cognito'), log: quiet })),
    freePort().then((port) => startSes({ port, log: quiet })),
    freePort().then((port) =>
      startS3({
        port,
        dataDir: join(dir, 's3'),
        bucket: TEST_RECEIPTS_BUCKET,
        webOrigin: TEST_WEB_ORIGIN,
        log: quiet,
      }),
    ),
  ]);
  project.provide('s3Endpoint', s3.endpoint);
  project.provide('dynamodbEndpoint', dynamodb.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  project.provide('cognito', {
    endpoint: cognito.endpoint,
    userPoolId: cognito.userPoolId,
    clientId: cognito.clientId,
    clientSecret: cognito.clientSecret,
    webClientId: cognito.webClientId,
    issuer: cognito.issuer,
  });
  return async () => {
    await Promise.all([dynamodb.stop(), cognito.stop(), ses.stop(), s3.stop()]);
    rmSync(dir, { recursive: true, force: true });
  };
}
