/**
 * A stand-in for the two pages of Cognito's hosted UI that social sign-in
 * uses, because cognito-local (5.3) has none: `/oauth2/authorize` (where
 * Google or Facebook would ask who you are) and `/oauth2/token` (where our API
 * trades the code for tokens), plus `/logout`. It keeps their rules that matter
 * to us: the code goes only to a request naming the web client, is single use,
 * must be redeemed with the same redirect URI, and only by the PKCE verifier
 * whose S256 challenge the browser sent. The tokens are real cognito-local
 * tokens of the web client. Who "signs in at the provider" next is the test's
 * to say (POST /__next), in one of two ways:
 *
 * - `{ email, password }`: that pool user, as an identity already linked to it;
 * - `{ identity, accountPassword }`: a provider identity (Google's or
 *   Facebook's id for the person, the address it gives and whether it says the
 *   address is verified), taken the way Cognito takes it. Linked to a user of
 *   the pool (the local Cognito's front keeps links: infra/local/cognitoFront.ts)
 *   it signs in as that user; with a user of its own already (a federated user)
 *   as that one; new, it runs the pre-sign-up trigger first (our
 *   lambdas/src/triggers/preSignUp.ts, given as `preSignUp`), whose refusal
 *   comes back as Cognito words it ("PreSignUp failed with error ..."), and
 *   then, unless the trigger linked it, becomes a federated user of its own:
 *   its `identities`, its `email` and, when the provider says so,
 *   `email_verified`, as the pool's attribute mapping sets them.
 *   `accountPassword` is the linked user's password: cognito-local issues no
 *   tokens without one (Cognito needs none).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';

/** A person as Google or Facebook presents them to Cognito. */
export interface ProviderIdentity {
  provider: 'Google' | 'Facebook';
  /** The provider's own id for the person (Google's `sub`, Facebook's app-scoped id). */
  id: string;
  email: string;
  /** Google's `email_verified`; Facebook gives no such claim (leave it out). */
  emailVerified?: boolean;
}

export interface HostedUiStandIn {
  url: string;
  /** The next visit to /oauth2/authorize signs in as this user (an identity already linked to it). */
  signInNextAs(user: { email: string; password: string }): Promise<void>;
  /** The next visit to /oauth2/authorize signs in with this provider identity, as Cognito would take it. */
  signInNextWith(identity: ProviderIdentity, accountPassword: string): Promise<void>;
  /** How many codes /oauth2/token has refused so far. */
  refusedExchanges(): number;
  stop(): Promise<void>;
}

interface IssuedCode {
  username: string;
  password: string;
  redirectUri: string;
  challenge: string;
  used: boolean;
}

type Queued = { email: string; password: string } | { identity: ProviderIdentity; accountPassword: string };

const PROVIDERS = new Set(['Google', 'Facebook']);

export async function startHostedUiStandIn(options: {
  cognitoEndpoint: string;
  webClientId: string;
  /** The pool the trigger is told about, and where federated users are made. */
  userPoolId: string;
  /** The pool's pre-sign-up trigger; without one, a new identity just becomes a federated user. */
  preSignUp?: (event: unknown) => Promise<unknown>;
  port?: number;
}): Promise<HostedUiStandIn> {
  const cognito = new CognitoIdentityProviderClient({
    endpoint: options.cognitoEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queued: Queued[] = [];
  const codes = new Map<string, IssuedCode>();
  /** `Provider:id` -> the federated user Cognito made of it, and the password we gave it to mint its tokens. */
  const federated = new Map<string, { username: string; password: string }>();
  let refused = 0;

  async function linkedUser(identity: ProviderIdentity): Promise<string | undefined> {
    const response = await fetch(
      `${options.cognitoEndpoint}/_local/identityLinks/${encodeURIComponent(identity.provider)}/${encodeURIComponent(identity.id)}`,
    );
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`the local Cognito answered ${response.status} for an identity link`);
    return ((await response.json()) as { username: string }).username;
  }

  async function existingFederatedUser(key: string) {
    const known = federated.get(key);
    if (!known) return undefined;
    try {
      await cognito.send(
        new AdminGetUserCommand({ UserPoolId: options.userPoolId, Username: known.username }),
      );
      return known;
    } catch (error) {
      if ((error as Error).name !== 'UserNotFoundException') throw error;
      federated.delete(key); // deleted since (e.g. when it was joined to an account)
      return undefined;
    }
  }

  /** Who signs in for this identity, or the refusal Cognito would send back. */
  async function signInWith(
    identity: ProviderIdentity,
    accountPassword: string,
  ): Promise<{ username: string; password: string } | { refusal: string }> {
    const key = `${identity.provider}:${identity.id}`;
    const linked = await linkedUser(identity);
    if (linked) return { username: linked, password: accountPassword };
    const known = await existingFederatedUser(key);
    if (known) return known;
    const attributes: Record<string, string> = {
      email: identity.email,
      ...(identity.emailVerified === undefined ? {} : { email_verified: String(identity.emailVerified) }),
    };
    if (options.preSignUp) {
      try {
        await options.preSignUp({
          version: '1',
          region: 'us-east-1',
          userPoolId: options.userPoolId,
          userName: `${identity.provider}_${identity.id}`,
          triggerSource: 'PreSignUp_ExternalProvider',
          callerContext: { awsSdkVersion: 'local', clientId: options.webClientId },
          request: { userAttributes: attributes },
          response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
        });
      } catch (error) {
        return { refusal: `PreSignUp failed with error ${(error as Error).message}.` };
      }
      const linkedNow = await linkedUser(identity);
      if (linkedNow) return { username: linkedNow, password: accountPassword };
    }
    // Cognito's federated user. cognito-local wants an address as the username; the `email`
    // attribute is the provider's, as the attribute mapping sets it.
    const created = await cognito.send(
      new AdminCreateUserCommand({
        UserPoolId: options.userPoolId,
        Username: `${identity.provider.toLowerCase()}_${identity.id}@federated.invalid`,
        MessageAction: 'SUPPRESS',
        UserAttributes: [
          ...Object.entries(attributes).map(([Name, Value]) => ({ Name, Value })),
          {
            Name: 'identities',
            Value: JSON.stringify([
              {
                userId: identity.id,
                providerName: identity.provider,
                providerType: identity.provider,
                issuer: null,
                primary: 'true',
                dateCreated: String(Date.now()),
              },
            ]),
          },
        ],
      }),
    );
    const username = created.User?.Username;
    if (!username) throw new Error('cognito-local made no federated user');
    const password = randomBytes(18).toString('base64url');
    await cognito.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: options.userPoolId,
        Username: username,
        Password: password,
        Permanent: true,
      }),
    );
    federated.set(key, { username, password });
    return { username, password };
  }

  const redirect = (res: ServerResponse, to: string) => {
    res.writeHead(302, { location: to, 'cache-control': 'no-store' });
    res.end();
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const bodyOf = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  async function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    const bad =
      q.get('response_type') !== 'code' ||
      q.get('client_id') !== options.webClientId ||
      !PROVIDERS.has(q.get('identity_provider') ?? '') ||
      q.get('code_challenge_method') !== 'S256' ||
      !q.get('code_challenge') ||
      !/^https?:\/\//.test(redirectUri);
    if (bad) return json(res, 400, { error: 'invalid_request' });
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state) back.searchParams.set('state', state);
    const next = queued.shift();
    if (!next) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The person cancelled at the provider');
      return redirect(res, back.toString());
    }
    const user =
      'identity' in next
        ? await signInWith(next.identity, next.accountPassword)
        : { username: next.email, password: next.password };
    if ('refusal' in user) {
      back.searchParams.set('error', 'invalid_request');
      back.searchParams.set('error_description', user.refusal);
      return redirect(res, back.toString());
    }
    const code = randomBytes(16).toString('hex');
    codes.set(code, { ...user, redirectUri, challenge: q.get('code_challenge') ?? '', used: false });
    back.searchParams.set('code', code);
    return redirect(res, back.toString());
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await bodyOf(req));
    const issued = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (
      form.get('grant_type') !== 'authorization_code' ||
      form.get('client_id') !== options.webClientId ||
      !issued ||
      issued.used ||
      issued.redirectUri !== form.get('redirect_uri') ||
      issued.challenge !== challenge
    ) {
      refused += 1;
      return json(res, 400, { error: 'invalid_grant' });
    }
    issued.used = true;
    const auth = await cognito.send(
      new InitiateAuthCommand({
        ClientId: options.webClientId,
        AuthFlow: 'USER_PASSWORD_AUTH',
        AuthParameters: { USERNAME: issued.username, PASSWORD: issued.password },
      }),
    );
    const result = auth.AuthenticationResult;
    return json(res, 200, {
      access_token: result?.AccessToken,
      id_token: result?.IdToken,
      refresh_token: result?.RefreshToken,
      expires_in: result?.ExpiresIn ?? 3600,
      token_type: 'Bearer',
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = `${req.method} ${url.pathname}`;
    const done = (async () => {
      if (route === 'GET /oauth2/authorize') return authorize(url, res);
      if (route === 'POST /oauth2/token') return token(req, res);
      if (route === 'GET /logout') {
        const to = url.searchParams.get('logout_uri');
        if (url.searchParams.get('client_id') !== options.webClientId || !to) {
          return json(res, 400, { error: 'invalid_request' });
        }
        return redirect(res, to);
      }
      if (route === 'POST /__next') {
        queued.push(JSON.parse(await bodyOf(req)) as Queued);
        return json(res, 200, { queued: queued.length });
      }
      return json(res, 404, { error: 'not_found' });
    })();
    done.catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    signInNextAs: async (user) => {
      const response = await fetch(`${url}/__next`, { method: 'POST', body: JSON.stringify(user) });
      if (!response.ok) throw new Error(`the hosted UI stand-in answered ${response.status}`);
    },
    signInNextWith: async (identity, accountPassword) => {
      const response = await fetch(`${url}/__next`, {
        method: 'POST',
        body: JSON.stringify({ identity, accountPassword }),
      });
      if (!response.ok) throw new Error(`the hosted UI stand-in answered ${response.status}`);
    },
    refusedExchanges: () => refused,
    stop: async () => {
      cognito.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
