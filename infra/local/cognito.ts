/**
 * cognito-local, a local Cognito user pool. It keeps its state under
 * `<dataDir>/.cognito`; the pool and app client are created once and found by
 * name on later starts, so sign-ins survive a restart.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { type LogSink, startProcess, waitForPort } from './processes';

const require = createRequire(import.meta.url);

export const LOCAL_POOL_NAME = 'learning-budget-local';
export const LOCAL_CLIENT_NAME = 'web';

export interface LocalCognito {
  endpoint: string;
  userPoolId: string;
  clientId: string;
  issuer: string;
  stop(): Promise<void>;
}

export async function startCognito(options: {
  port: number;
  dataDir: string;
  log: LogSink;
}): Promise<LocalCognito> {
  const cwd = resolve(options.dataDir);
  mkdirSync(cwd, { recursive: true });
  const bin = join(dirname(require.resolve('cognito-local/package.json')), 'lib/bin/start.js');
  const child = startProcess(process.execPath, [bin], {
    cwd,
    // cognito-local is built on the AWS SDK v2, which prints an end-of-support notice on start.
    env: {
      HOST: '127.0.0.1',
      PORT: String(options.port),
      AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: '1',
      NODE_NO_WARNINGS: '1',
    },
    log: options.log,
  });
  await waitForPort(options.port, 30_000, 'cognito-local');
  const endpoint = `http://127.0.0.1:${options.port}`;
  const { userPoolId, clientId } = await ensurePoolAndClient(endpoint);
  return {
    endpoint,
    userPoolId,
    clientId,
    issuer: `${endpoint}/${userPoolId}`,
    stop: () => child.stopProcess(),
  };
}

async function ensurePoolAndClient(endpoint: string): Promise<{ userPoolId: string; clientId: string }> {
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
  let clientId = clients.UserPoolClients?.find((c) => c.ClientName === LOCAL_CLIENT_NAME)?.ClientId;
  if (!clientId) {
    const created = await client.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: LOCAL_CLIENT_NAME,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      }),
    );
    clientId = created.UserPoolClient?.ClientId;
  }
  if (!clientId) throw new Error('cognito-local did not create the app client');
  client.destroy();
  return { userPoolId, clientId };
}
