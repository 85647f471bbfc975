/**
 * End-to-end tests run against the whole local stack, as `npm start` runs it,
 * on free ports with a throw-away data folder and an in-memory database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../infra/local/stack';
import { startHostedUiStandIn } from './hostedUiStandIn';
import { CLIENT_IP_HEADER } from './integrationStack';
import { freeLocalPorts, freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: {
      webUrl: string;
      /** The API at the app's own origin (`<webUrl>/api`), as the browser calls it and as in AWS. */
      apiUrl: string;
      mailboxUrl: string;
      stripeUrl: string;
      dynamodbEndpoint: string;
      tableName: string;
      /** The hosted UI stand-in (social sign-in); config.json offers it only where a test says so. */
      hostedUiUrl: string;
    };
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lb-e2e-'));
  // The API must know the hosted UI before it starts; the stand-in needs the user pool, which
  // starts with the stack: so its port is picked first.
  const hostedUiPort = await freePort();
  const stack = await startLocalStack({
    ports: await freeLocalPorts(),
    dataDir,
    inMemoryDatabase: true,
    quiet: true,
    // Setup calls made by the tests themselves (accountFlows) come from simulated clients;
    // each test browser sends its own address too (test/support/browser.ts), as separate people would.
    simulatedClientIpHeader: CLIENT_IP_HEADER,
    hostedUiUrl: `http://127.0.0.1:${hostedUiPort}`,
    // Tests run the jobs they need; none fires by the clock in the middle of one.
    scheduledJobs: false,
  });
  // The pool's pre-sign-up trigger, run in this process as the stack's handlers are (its environment).
  const { handler: preSignUp } = await import('../../lambdas/src/triggers/preSignUp');
  const hostedUi = await startHostedUiStandIn({
    port: hostedUiPort,
    cognitoEndpoint: stack.cognito.endpoint,
    webClientId: stack.cognito.webClientId,
    userPoolId: stack.cognito.userPoolId,
    preSignUp: (event) => preSignUp(event as never),
  });
  project.provide('e2e', {
    webUrl: stack.webUrl,
    // Through the web server's /api proxy, as the app calls it: the tests' own calls and the
    // browser's requests they watch name the same address.
    apiUrl: stack.appApiUrl,
    mailboxUrl: stack.mailboxUrl,
    stripeUrl: stack.stripeUrl,
    dynamodbEndpoint: stack.dynamodbEndpoint,
    tableName: stack.tableName,
    hostedUiUrl: hostedUi.url,
  });
  return async () => {
    await hostedUi.stop();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
