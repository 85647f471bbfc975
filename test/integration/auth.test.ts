import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keys } from '../../lambdas/src/data/keys';
import { createSignedInUser } from '../support/cognitoUsers';
import { type IntegrationStack, startIntegrationStack } from '../support/integrationStack';

let stack: IntegrationStack;
beforeAll(async () => {
  stack = await startIntegrationStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function getMe(token?: string) {
  const response = await fetch(`${stack.apiUrl}/me`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function putUser(userId: string, email: string, extra: Record<string, unknown> = {}) {
  await stack.doc.send(
    new PutCommand({
      TableName: stack.tableName,
      Item: {
        ...keys.user(userId),
        ...keys.userByTeam('team-1', userId),
        entity: 'User',
        userId,
        email,
        firstName: 'Mae',
        lastName: 'Jemison',
        role: 'employee',
        teamId: 'team-1',
        status: 'active',
        emailVerified: true,
        finishedWalkthrough: false,
        createdAt: new Date().toISOString(),
        budgetCents: 2500,
        ...extra,
      },
    }),
  );
}

function base64url(value: object | Buffer): string {
  const buffer = Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value));
  return buffer.toString('base64url');
}

describe('GET /me (a signed-in route)', () => {
  it('answers 401 without a token, before any handler runs', async () => {
    expect((await getMe()).status).toBe(401);
  });

  it('answers 401 for a token that is not a JWT', async () => {
    expect((await getMe('not-a-jwt')).status).toBe(401);
  });

  it("returns the caller's own profile, with only the fields the schema names", async () => {
    const email = `mae-${randomUUID()}@example.com`;
    const { sub, accessToken } = await createSignedInUser(email);
    await putUser(sub, email);
    const res = await getMe(accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      userId: sub,
      email,
      role: 'employee',
      teamId: 'team-1',
      status: 'active',
    });
    expect(res.body).not.toHaveProperty('budgetCents');
    expect(res.body).not.toHaveProperty('pk');
  });

  it('answers 401 when the Cognito user has no account in our table', async () => {
    const { accessToken } = await createSignedInUser(`ghost-${randomUUID()}@example.com`);
    const res = await getMe(accessToken);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('locks out a deleted user at once, although their token is still valid', async () => {
    const email = `gone-${randomUUID()}@example.com`;
    const { sub, accessToken } = await createSignedInUser(email);
    await putUser(sub, email);
    expect((await getMe(accessToken)).status).toBe(200);
    await stack.doc.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.user(sub),
        UpdateExpression: 'SET #s = :deleted',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':deleted': 'deleted' },
      }),
    );
    expect((await getMe(accessToken)).status).toBe(401);
  });

  it('refuses a token whose payload was altered (signature no longer matches)', async () => {
    const email = `tamper-${randomUUID()}@example.com`;
    const { sub, accessToken } = await createSignedInUser(email);
    await putUser(sub, email);
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${header}.${base64url({ ...claims, sub: 'someone-else' })}.${signature}`;
    expect((await getMe(forged)).status).toBe(401);
  });

  it('refuses an unsigned (alg none) token', async () => {
    const email = `none-${randomUUID()}@example.com`;
    const { sub, accessToken } = await createSignedInUser(email);
    await putUser(sub, email);
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString());
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    expect((await getMe(unsigned)).status).toBe(401);
  });

  it('refuses a token signed by a key that is not the pool’s', async () => {
    const email = `forger-${randomUUID()}@example.com`;
    const { sub, accessToken } = await createSignedInUser(email);
    await putUser(sub, email);
    const header = JSON.parse(Buffer.from(accessToken.split('.')[0] as string, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString());
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const unsigned = `${base64url(header)}.${base64url(claims)}`;
    const forged = `${unsigned}.${base64url(sign('RSA-SHA256', Buffer.from(unsigned), privateKey))}`;
    expect((await getMe(forged)).status).toBe(401);
  });

  it('refuses an expired token, signed with the pool’s own key (cognito-local ships it), and accepts a fresh one', async () => {
    const email = `expired-${randomUUID()}@example.com`;
    const { sub, accessToken } = await createSignedInUser(email);
    await putUser(sub, email);
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const key = require('cognito-local/lib/keys/cognitoLocal.private.json') as { pem: string };
    const [headerPart, payloadPart] = accessToken.split('.') as [string, string];
    const header = JSON.parse(Buffer.from(headerPart, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString());
    const resign = (overrides: Record<string, unknown>) => {
      const unsigned = `${base64url(header)}.${base64url({ ...claims, ...overrides })}`;
      return `${unsigned}.${base64url(sign('RSA-SHA256', Buffer.from(unsigned), key.pem))}`;
    };
    const now = Math.floor(Date.now() / 1000);
    // The same key and claims with a future expiry pass, so only the expiry can be what fails below.
    expect((await getMe(resign({ iat: now - 60, exp: now + 600 }))).status).toBe(200);
    expect((await getMe(resign({ iat: now - 7200, exp: now - 3600 }))).status).toBe(401);
    // A token for another audience (client) is refused too, even when correctly signed.
    expect((await getMe(resign({ client_id: 'someone-elses-client', exp: now + 600 }))).status).toBe(401);
    // So is an id token presented as an access token.
    expect((await getMe(resign({ token_use: 'id', exp: now + 600 }))).status).toBe(401);
  });

  it('refuses a token issued to another app client of the same pool', async () => {
    const { endpoint, userPoolId } = inject('cognito');
    const cognito = new CognitoIdentityProviderClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const other = await cognito.send(
      new CreateUserPoolClientCommand({
        UserPoolId: userPoolId,
        ClientName: `other-${randomUUID()}`,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'],
      }),
    );
    cognito.destroy();
    const otherClientId = other.UserPoolClient?.ClientId as string;
    // Sign in through the other client by swapping the client id the helper uses.
    const email = `other-${randomUUID()}@example.com`;
    const { sub } = await createSignedInUser(email);
    await putUser(sub, email);
    const { InitiateAuthCommand } = await import('@aws-sdk/client-cognito-identity-provider');
    const c2 = new CognitoIdentityProviderClient({
      endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const auth = await c2.send(
      new InitiateAuthCommand({
        ClientId: otherClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: 'correct horse battery' },
      }),
    );
    c2.destroy();
    const token = auth.AuthenticationResult?.AccessToken as string;
    expect(token).toBeTruthy();
    expect((await getMe(token)).status).toBe(401);
  });
});
