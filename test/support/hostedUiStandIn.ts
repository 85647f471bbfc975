/**
 * A stand-in for the two pages of Cognito's hosted UI that social sign-in
 * uses, because cognito-local (5.3) has none: `/oauth2/authorize` (where
 * Google or Facebook would ask who you are) and `/oauth2/token` (where our API
 * trades the code for tokens), plus `/logout`. It keeps their rules that matter
 * to us: the code goes only to a request naming the web client, is single use,
 * must be redeemed with the same redirect URI, and only by the PKCE verifier
 * whose S256 challenge the browser sent. The tokens are real cognito-local
 * tokens of the web client, for the user the test says "signs in at the
 * provider" next (POST /__next {email, password}); no identity provider is
 * emulated.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';

export interface HostedUiStandIn {
  url: string;
  /** The next visit to /oauth2/authorize signs in as this user (the provider's part). */
  signInNextAs(user: { email: string; password: string }): Promise<void>;
  /** How many codes /oauth2/token has refused so far. */
  refusedExchanges(): number;
  stop(): Promise<void>;
}

interface IssuedCode {
  email: string;
  password: string;
  redirectUri: string;
  challenge: string;
  used: boolean;
}

const PROVIDERS = new Set(['Google', 'Facebook']);

export async function startHostedUiStandIn(options: {
  cognitoEndpoint: string;
  webClientId: string;
  port?: number;
}): Promise<HostedUiStandIn> {
  const cognito = new CognitoIdentityProviderClient({
    endpoint: options.cognitoEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const queued: { email: string; password: string }[] = [];
  const codes = new Map<string, IssuedCode>();
  let refused = 0;

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

  function authorize(url: URL, res: ServerResponse) {
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
    const user = queued.shift();
    if (!user) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The person cancelled at the provider');
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
        AuthParameters: { USERNAME: issued.email, PASSWORD: issued.password },
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
        queued.push(JSON.parse(await bodyOf(req)) as { email: string; password: string });
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
    refusedExchanges: () => refused,
    stop: async () => {
      cognito.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
