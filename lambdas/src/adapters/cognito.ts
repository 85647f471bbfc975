/**
 * The user pool, behind one small port. Cognito holds passwords and issues
 * tokens; everything else about a person (role, team, status) is ours, in the
 * table. Locally COGNITO_ENDPOINT points at cognito-local. Only
 * USER_PASSWORD_AUTH is used, so local and AWS run one path (local-stack.md).
 *
 * One door (docs/security.md "Sign-in"): users are created with AdminCreateUser
 * (self sign-up is off), and every password or refresh call goes through the
 * confidential app client with its SECRET_HASH, a secret only this API holds.
 */
import { createHmac } from 'node:crypto';
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminLinkProviderForUserCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  DescribeUserPoolClientCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { authConfig, awsConfig, cognitoEndpointConfig, userPoolConfig } from '../platform/config';

let client: CognitoIdentityProviderClient | undefined;

function cognito(): CognitoIdentityProviderClient {
  if (!client) {
    const { COGNITO_ENDPOINT } = userPoolConfig();
    client = new CognitoIdentityProviderClient({
      region: awsConfig().AWS_REGION,
      ...(COGNITO_ENDPOINT ? { endpoint: COGNITO_ENDPOINT } : {}),
    });
  }
  return client;
}

let secretPromise: Promise<string> | undefined;

/**
 * Read from the pool itself (DescribeUserPoolClient), the same call against
 * cognito-local and AWS: the secret is in no template, environment or secret
 * store, and IAM lets only the functions with `userPool:signIn` read it.
 */
async function loadClientSecret(): Promise<string> {
  const { COGNITO_CLIENT_ID, COGNITO_USER_POOL_ID } = userPoolConfig();
  const result = await cognito().send(
    new DescribeUserPoolClientCommand({ UserPoolId: COGNITO_USER_POOL_ID, ClientId: COGNITO_CLIENT_ID }),
  );
  const secret = result.UserPoolClient?.ClientSecret;
  if (!secret)
    throw new Error('The app client has no secret: the API signs in through a confidential client');
  return secret;
}

/** The app client's secret, read once per container. */
function clientSecret(): Promise<string> {
  secretPromise ??= loadClientSecret().catch((error) => {
    secretPromise = undefined;
    throw error;
  });
  return secretPromise;
}

/**
 * Cognito's SECRET_HASH: HMAC-SHA256 of username + client id under the client
 * secret. For refresh, the username is the pool's own (the sub), not the e-mail.
 */
async function secretHash(username: string): Promise<string> {
  const { COGNITO_CLIENT_ID } = userPoolConfig();
  return createHmac('sha256', await clientSecret())
    .update(username + COGNITO_CLIENT_ID)
    .digest('base64');
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/**
 * What Cognito answers for a wrong password, unknown or disabled user, or bad
 * refresh token (cognito-local says InvalidPasswordException for a wrong password).
 */
const REFUSALS = new Set([
  'NotAuthorizedException',
  'UserNotFoundException',
  'InvalidPasswordException',
  'UserNotConfirmedException',
]);

/** Thrown when Cognito refuses a password or a refresh token. */
export class InvalidCredentials extends Error {}
/** Thrown when the pool already has a user with that e-mail. */
export class UsernameTaken extends Error {}

/**
 * Creates a confirmed user with its password (our own e-mail verification runs
 * separately) and returns its id (sub). AdminCreateUser, because self sign-up is
 * off: nobody can create a login except through our rate-limited routes.
 */
export async function createConfirmedUser(email: string, password: string): Promise<string> {
  const { COGNITO_USER_POOL_ID } = userPoolConfig();
  let sub: string | undefined;
  try {
    const result = await cognito().send(
      new AdminCreateUserCommand({
        UserPoolId: COGNITO_USER_POOL_ID,
        Username: email,
        // Cognito sends no mail of its own (accountEmails.ts does).
        MessageAction: 'SUPPRESS',
        UserAttributes: [{ Name: 'email', Value: email }],
      }),
    );
    sub = result.User?.Attributes?.find((a) => a.Name === 'sub')?.Value;
  } catch (error) {
    if ((error as Error).name === 'UsernameExistsException') throw new UsernameTaken(email);
    throw error;
  }
  if (!sub) throw new Error('Cognito returned no user id');
  try {
    // Permanent: the user chose it in our form; no FORCE_CHANGE_PASSWORD challenge follows.
    await setPassword(email, password);
  } catch (error) {
    await deleteUser(email);
    throw error;
  }
  return sub;
}

export async function deleteUser(email: string): Promise<void> {
  try {
    await cognito().send(
      new AdminDeleteUserCommand({ UserPoolId: userPoolConfig().COGNITO_USER_POOL_ID, Username: email }),
    );
  } catch (error) {
    if ((error as Error).name !== 'UserNotFoundException') throw error;
  }
}

export async function passwordSignIn(email: string, password: string): Promise<Tokens> {
  try {
    const result = await cognito().send(
      new InitiateAuthCommand({
        ClientId: userPoolConfig().COGNITO_CLIENT_ID,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: email, PASSWORD: password, SECRET_HASH: await secretHash(email) },
      }),
    );
    const auth = result.AuthenticationResult;
    if (!auth?.AccessToken || !auth.RefreshToken) throw new InvalidCredentials('no tokens');
    return {
      accessToken: auth.AccessToken,
      refreshToken: auth.RefreshToken,
      expiresIn: auth.ExpiresIn ?? 3600,
    };
  } catch (error) {
    const name = (error as Error).name;
    if (REFUSALS.has(name) || error instanceof InvalidCredentials) throw new InvalidCredentials('refused');
    throw error;
  }
}

/**
 * Which app client a refresh token belongs to: the confidential `server`
 * client (password sign-in, with SECRET_HASH) or the public `web` client
 * (social sign-in through the hosted UI, no secret). A token only refreshes
 * or revokes at the client that issued it.
 */
export type AppClient = 'server' | 'web';

function webClientId(): string {
  const id = authConfig().COGNITO_WEB_CLIENT_ID;
  if (!id) throw new Error('COGNITO_WEB_CLIENT_ID is not set: no social session can be refreshed');
  return id;
}

/** `username` is the pool's username: the user's sub (what the SECRET_HASH of a refresh is made of). */
export async function refreshTokens(
  username: string,
  refreshToken: string,
  issuedTo: AppClient = 'server',
): Promise<Tokens> {
  try {
    const result = await cognito().send(
      new InitiateAuthCommand(
        issuedTo === 'web'
          ? {
              ClientId: webClientId(),
              AuthFlow: 'REFRESH_TOKEN_AUTH',
              AuthParameters: { REFRESH_TOKEN: refreshToken },
            }
          : {
              ClientId: userPoolConfig().COGNITO_CLIENT_ID,
              AuthFlow: 'REFRESH_TOKEN_AUTH',
              AuthParameters: {
                REFRESH_TOKEN: refreshToken,
                USERNAME: username,
                SECRET_HASH: await secretHash(username),
              },
            },
      ),
    );
    const auth = result.AuthenticationResult;
    if (!auth?.AccessToken) throw new InvalidCredentials('no tokens');
    return {
      accessToken: auth.AccessToken,
      refreshToken: auth.RefreshToken ?? refreshToken,
      expiresIn: auth.ExpiresIn ?? 3600,
    };
  } catch (error) {
    const name = (error as Error).name;
    if (REFUSALS.has(name) || error instanceof InvalidCredentials) throw new InvalidCredentials('refused');
    throw error;
  }
}

export async function setPassword(email: string, password: string): Promise<void> {
  await cognito().send(
    new AdminSetUserPasswordCommand({
      UserPoolId: userPoolConfig().COGNITO_USER_POOL_ID,
      Username: email,
      Password: password,
      Permanent: true,
    }),
  );
}

/** Revokes every refresh token the user holds (other browsers are signed out when their access token ends). */
export async function signOutEverywhere(email: string): Promise<void> {
  try {
    await cognito().send(
      new AdminUserGlobalSignOutCommand({
        UserPoolId: userPoolConfig().COGNITO_USER_POOL_ID,
        Username: email,
      }),
    );
  } catch (error) {
    // cognito-local has no global sign-out ("Unsupported"); our own session records
    // (endAllSessions) revoke refresh tokens and older access tokens either way.
    if ((error as Error).name !== 'Unsupported') throw error;
  }
}

export async function disableUser(email: string): Promise<void> {
  await cognito().send(
    new AdminDisableUserCommand({ UserPoolId: userPoolConfig().COGNITO_USER_POOL_ID, Username: email }),
  );
}

/** Signing in again for someone reactivated (issue 28): the same user, password and identities. */
export async function enableUser(email: string): Promise<void> {
  await cognito().send(
    new AdminEnableUserCommand({ UserPoolId: userPoolConfig().COGNITO_USER_POOL_ID, Username: email }),
  );
}

/** When the pool's user for this e-mail was created, or undefined if there is none. */
export async function loginCreatedAt(email: string): Promise<Date | undefined> {
  try {
    const user = await cognito().send(
      new AdminGetUserCommand({ UserPoolId: userPoolConfig().COGNITO_USER_POOL_ID, Username: email }),
    );
    return user.UserCreateDate ? new Date(user.UserCreateDate) : new Date(0);
  } catch (error) {
    if ((error as Error).name === 'UserNotFoundException') return undefined;
    throw error;
  }
}

/** Ends one refresh token at Cognito (sign-out); an unknown token is already as good as ended. */
export async function revokeRefreshToken(
  refreshToken: string,
  issuedTo: AppClient = 'server',
): Promise<void> {
  try {
    await cognito().send(
      new RevokeTokenCommand(
        issuedTo === 'web'
          ? { ClientId: webClientId(), Token: refreshToken }
          : {
              ClientId: userPoolConfig().COGNITO_CLIENT_ID,
              ClientSecret: await clientSecret(),
              Token: refreshToken,
            },
      ),
    );
  } catch (error) {
    const name = (error as Error).name;
    if (!REFUSALS.has(name) && name !== 'UnsupportedTokenTypeException' && name !== 'Unsupported')
      throw error;
  }
}

/**
 * Ends a refresh token of the public web client (a social sign-in we refuse).
 * No secret is involved, so unlike the server client's revocation it needs no
 * IAM right at all.
 */
export async function revokeWebClientToken(refreshToken: string): Promise<void> {
  await revokeRefreshToken(refreshToken, 'web');
}

/** Links a provider's identity to the pool's user with this e-mail (AdminLinkProviderForUser). */
async function linkIdentity(
  client: CognitoIdentityProviderClient,
  userPoolId: string,
  email: string,
  providerName: string,
  providerUserId: string,
): Promise<void> {
  await client.send(
    new AdminLinkProviderForUserCommand({
      UserPoolId: userPoolId,
      DestinationUser: { ProviderName: 'Cognito', ProviderAttributeValue: email },
      SourceUser: {
        ProviderName: providerName,
        ProviderAttributeName: 'Cognito_Subject',
        ProviderAttributeValue: providerUserId,
      },
    }),
  );
}

/**
 * Links a social identity (e.g. Google) to the existing account with the same
 * verified e-mail, so signing in with it yields that account's tokens. Called
 * by the pre-sign-up trigger, before Cognito makes a user of the identity.
 */
export async function linkSocialIdentity(
  userPoolId: string,
  email: string,
  providerName: string,
  providerUserId: string,
): Promise<void> {
  // The pool id comes from the trigger event: the trigger belongs to the pool's own
  // stack, and the id in its environment would be a circular reference.
  const { COGNITO_ENDPOINT } = cognitoEndpointConfig();
  const client = new CognitoIdentityProviderClient({
    region: awsConfig().AWS_REGION,
    ...(COGNITO_ENDPOINT ? { endpoint: COGNITO_ENDPOINT } : {}),
  });
  try {
    await linkIdentity(client, userPoolId, email, providerName, providerUserId);
  } finally {
    client.destroy();
  }
}

/**
 * A provider's sign-in that Cognito made a user of its own, because the
 * pre-sign-up trigger would not link it to the account with its e-mail
 * (services/accounts/socialSignIn.ts): it waits to be joined by that
 * account's password.
 */
export interface FederatedLogin {
  /** Its username in the pool (`Google_<id>` in Cognito): what deleting it names. */
  username: string;
  /** The identity provider as the pool names it (`Google`, `Facebook`) and its id for the person. */
  provider: string;
  providerUserId: string;
  /** The address the provider gave (the mapped `email`). */
  email?: string;
}

/**
 * The provider's sign-in behind a pool username (a web-client token's
 * `username`), or undefined when the username is no federated user (a
 * password login, one already linked, or none at all).
 */
export async function federatedLogin(username: string): Promise<FederatedLogin | undefined> {
  let attributes: { Name?: string; Value?: string }[];
  try {
    const user = await cognito().send(
      new AdminGetUserCommand({ UserPoolId: userPoolConfig().COGNITO_USER_POOL_ID, Username: username }),
    );
    attributes = user.UserAttributes ?? [];
  } catch (error) {
    if ((error as Error).name === 'UserNotFoundException') return undefined;
    throw error;
  }
  const attribute = (name: string) => attributes.find((a) => a.Name === name)?.Value;
  let identities: unknown;
  try {
    identities = JSON.parse(attribute('identities') ?? '[]');
  } catch {
    return undefined;
  }
  const [identity] = Array.isArray(identities)
    ? (identities as { providerName?: unknown; userId?: unknown }[])
    : [];
  if (typeof identity?.providerName !== 'string' || typeof identity.userId !== 'string') return undefined;
  const email = attribute('email');
  return {
    username,
    provider: identity.providerName,
    providerUserId: identity.userId,
    ...(email ? { email } : {}),
  };
}

/**
 * Joins a provider's sign-in to the account with this e-mail, once the person
 * proved the account is theirs: the provider's own user is deleted first
 * (Cognito links only an identity that has none: "Merging is not currently
 * supported"), then its identity is linked, so its next sign-in yields the
 * account's tokens.
 */
export async function joinFederatedLogin(email: string, login: FederatedLogin): Promise<void> {
  const { COGNITO_USER_POOL_ID } = userPoolConfig();
  try {
    await cognito().send(
      new AdminDeleteUserCommand({ UserPoolId: COGNITO_USER_POOL_ID, Username: login.username }),
    );
  } catch (error) {
    if ((error as Error).name !== 'UserNotFoundException') throw error;
  }
  await linkIdentity(cognito(), COGNITO_USER_POOL_ID, email, login.provider, login.providerUserId);
}
