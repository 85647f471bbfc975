/**
 * cognito-local, a local Cognito user pool. It keeps its state under
 * `<dataDir>/.cognito`; the pool and app client are created once and found by
 * name on later starts, so sign-ins survive a restart. It listens on a port of
 * its own behind a front (./cognitoFront.ts) at the local Cognito's address,
 * which adds the identity linking it lacks; its tokens name the front as their
 * issuer, as Cognito's name Cognito's own address.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  DescribeUserPoolClientCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { startCognitoFront } from './cognitoFront';
import { type LogSink, startProcess, waitForPort } from './processes';

const require = createRequire(import.meta.url);

export const LOCAL_POOL_NAME = 'learning-budget-local';
/** The public client: the hosted UI's code flow (social sign-in) only; what config.json names. */
export const LOCAL_CLIENT_NAME = 'web';
/** The confidential client: passwords, with a secret only the API holds (docs/security.md "Sign-in"). */
export const LOCAL_SERVER_CLIENT_NAME = 'server';

export interface LocalCognito {
  endpoint: string;
  userPoolId: string;
  /** The confidential client the API signs in with (COGNITO_CLIENT_ID). */
  clientId: string;
  /** Its secret (COGNITO_CLIENT_SECRET locally; Secrets Manager in AWS). */
  clientSecret: string;
  /** The public client of the web app (config.json `userPoolClientId`, COGNITO_WEB_CLIENT_ID). */
  webClientId: string;
  issuer: string;
  stop(): Promise<void>;
}

export async function startCognito(options: {
  port: number;
  dataDir: string;
  log: LogSink;
}): Promise<LocalCognito> {
  const cwd = resolve(options.dataDir);
  const endpoint = `http://127.0.0.1:${options.port}`;
  mkdirSync(join(cwd, '.cognito'), { recursive: true });
  writeFileSync(
    join(cwd, '.cognito', 'config.json'),
    JSON.stringify({ TokenConfig: { IssuerDomain: endpoint } }, null, 2),
  );
  const innerPort = await anyFreePort();
  const bin = join(dirname(require.resolve('cognito-local/package.json')), 'lib/bin/start.js');
  const child = startProcess(process.execPath, [bin], {
    cwd,
    // cognito-local is built on the AWS SDK v2, which prints an end-of-support notice on start.
    env: {
      HOST: '127.0.0.1',
      PORT: String(innerPort),
      AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
      NODE_NO_WARNINGS: '1',
    },
    log: options.log,
  });
  let front: Awaited<ReturnType<typeof startCognitoFront>> | undefined;
  try {
    await waitForPort(innerPort, 30_000, 'cognito-local');
    front = await startCognitoFront({ port: options.port, target: `http://127.0.0.1:${innerPort}` });
    const { userPoolId, clientId, clientSecret, webClientId } = await ensurePoolAndClients(endpoint);
    const started = front;
    return {
      endpoint,
      userPoolId,
      clientId,
      clientSecret,
      webClientId,
      issuer: `${endpoint}/${userPoolId}`,
      stop: async () => {
        await started.stop();
        await child.stopProcess();
      },
    };
  } catch (error) {
    await front?.stop();
    await child.stopProcess();
    throw error;
  }
}

/** A port the OS says is free, for cognito-local itself (only the front's is configured). */
function anyFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

async function ensurePoolAndClients(
  endpoint: string,
): Promise<{ userPoolId: string; clientId: string; clientSecret: string; webClientId: string }> {
  const client = new CognitoIdentityProviderClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
  let userPoolId = pools.UserPools?.find((p) => p.Name === LOCAL_POOL_NAME)?.Id;
  if (!userPoolId) {
    const created = await client.send(
      new CreateUserPoolCommand({
        PoolName: LOCAL_POOL_NAME,
        UsernameAttributes: ['email'],
        // Only the API creates users (AdminCreateUser); cognito-local does not enforce this.
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        Policies: {
          PasswordPolicy: {
            MinimumLength: 8,
            RequireLowercase: false,
            RequireUppercase: false,
            RequireNumbers: false,
            RequireSymbols: false,
          },
        },
      }),
    );
    userPoolId = created.UserPool?.Id;
  }
  if (!userPoolId) throw new Error('cognito-local did not create the user pool');
  const clients = await client.send(
    new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }),
  );
  const find = (name: string) => clients.UserPoolClients?.find((c) => c.ClientName === name)?.ClientId;
  let webClientId = find(LOCAL_CLIENT_NAME);
  if (!webClientId) {
    const created = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: LOCAL_CLIENT_NAME,
        ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    webClientId = created.UserPoolClient?.ClientId;
  }
  let serverClientId = find(LOCAL_SERVER_CLIENT_NAME);
  let clientSecret: string | undefined;
  if (serverClientId) {
    const described = await client.send(
      new DescribeUserPoolClientCommand({ UserPoolId: userPoolId, ClientId: serverClientId }),
    );
    clientSecret = described.UserPoolClient?.ClientSecret;
  } else {
    const created = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: LOCAL_SERVER_CLIENT_NAME,
        GenerateSecret: true,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    serverClientId = created.UserPoolClient?.ClientId;
    clientSecret = created.UserPoolClient?.ClientSecret;
  }
  if (!webClientId || !serverClientId || !clientSecret) {
    throw new Error('cognito-local did not create the app clients');
  }
  client.destroy();
  return { userPoolId, clientId: serverClientId, clientSecret, webClientId };
}
