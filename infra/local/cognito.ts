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
  DescribeUserPoolClientCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
} from '@aws-sdk/client-cognito-identity-provider';
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
  const { userPoolId, clientId, clientSecret, webClientId } = await ensurePoolAndClients(endpoint);
  return {
    endpoint,
    userPoolId,
    clientId,
    clientSecret,
    webClientId,
    issuer: `${endpoint}/${userPoolId}`,
    stop: () => child.stopProcess(),
  };
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
