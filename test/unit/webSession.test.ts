/**
 * The browser session (web/src/auth) and the API client's one retry after a
 * 401, without a browser: localStorage is a Map, the API is a stub (the
 * cookie itself is proven in test/integration/sessionCookie.test.ts and the
 * browser in test/e2e/accounts.test.ts).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, isStepUpCancelled } from '../../web/src/api/client';

const { storage, api, handlers, social } = vi.hoisted(() => {
  const map = new Map<string, string>();
  const storage = {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    clear: () => map.clear(),
  };
  Object.assign(globalThis, { localStorage: storage });
  return {
    storage,
    api: vi.fn<(op: string, input: unknown) => Promise<unknown>>(),
    handlers: {} as { token?: () => Promise<string | undefined>; unauthorized?: () => Promise<boolean> },
    // The browser-only half of social sign-in (address bar, sessionStorage, navigation).
    social: {
      takeSocialReturn: vi.fn(() => ({ authorizationCode: 'code-1', codeVerifier: 'v'.repeat(43) })),
      leaveHostedSignIn: vi.fn(async () => undefined),
    },
  };
});

vi.mock('../../web/src/auth/social', () => social);

vi.mock('../../web/src/api/client', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../web/src/api/client')>();
  return {
    ...original,
    call: (op: string, input: unknown) => api(op, input),
    setTokenGetter: (getter: () => Promise<string | undefined>) => {
      handlers.token = getter;
    },
    setUnauthorizedHandler: (handler: () => Promise<boolean>) => {
      handlers.unauthorized = handler;
    },
  };
});

const me = {
  userId: 'u1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  role: 'manager' as const,
  teamId: 't1',
  status: 'active' as const,
  emailVerified: false,
  finishedWalkthrough: false,
  teamStatus: 'active',
  timeZone: 'America/New_York',
};

function answers(table: Record<string, unknown | (() => unknown)>) {
  api.mockImplementation(async (op) => {
    const answer = table[op];
    if (answer === undefined) throw new Error(`unexpected call ${op}`);
    const value = typeof answer === 'function' ? (answer as () => unknown)() : answer;
    if (value instanceof Error) throw value;
    return value;
  });
}

const session = { accessToken: 'access-1', expiresIn: 3600, role: 'manager' };

describe('the session store', () => {
  beforeEach(async () => {
    storage.clear();
    api.mockReset();
    answers({ signOut: { ok: true } });
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await useSession.getState().signOut();
    api.mockReset();
  });

  it('signs in through the API, stores only the kind of session (no token, no e-mail), and writes the hint', async () => {
    answers({ signIn: session, getMe: me });
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await useSession.getState().signIn('Ada@Example.com', 'secret-pass');

    expect(api).toHaveBeenCalledWith('signIn', { email: 'Ada@Example.com', password: 'secret-pass' });
    expect(useSession.getState()).toMatchObject({ status: 'signedIn', me });
    // The refresh token is in the HttpOnly cookie the answer set; the access token in memory.
    expect(JSON.parse(storage.getItem('lb.auth') ?? '')).toEqual({ kind: 'password' });
    expect(storage.getItem('lb.session')).toBe('{"role":"manager"}');
    expect(await handlers.token?.()).toBe('access-1');
  });

  // A social session renews through the same cookie route as a password one.
  it.each(['password', 'social'])(
    'restores a %s session after a reload by refreshing with nothing in the body (the cookie goes along)',
    async (kind) => {
      storage.setItem('lb.auth', JSON.stringify({ kind }));
      answers({ refreshSession: { ...session, accessToken: 'access-2' }, getMe: me });
      const { ensureSession, useSession } = await import('../../web/src/auth/sessionStore');
      await ensureSession();
      expect(api).toHaveBeenCalledWith('refreshSession', {});
      expect(useSession.getState().status).toBe('signedIn');
      expect(await handlers.token?.()).toBe('access-2');
    },
  );

  it('after a 401, refreshes once; when the session has ended it signs out and clears storage and hint', async () => {
    answers({ signIn: session, getMe: me });
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await useSession.getState().signIn('ada@example.com', 'secret-pass');

    answers({ refreshSession: { ...session, accessToken: 'access-3' } });
    expect(await handlers.unauthorized?.()).toBe(true);
    expect(await handlers.token?.()).toBe('access-3');

    answers({
      refreshSession: new ApiError('UNAUTHENTICATED', 'Your session has ended. Please sign in again.'),
    });
    expect(await handlers.unauthorized?.()).toBe(false);
    expect(useSession.getState()).toMatchObject({ status: 'signedOut', me: null });
    expect(storage.getItem('lb.auth')).toBeNull();
    expect(storage.getItem('lb.session')).toBeNull();
    expect(await handlers.token?.()).toBeUndefined();
  });

  it('a session that cannot be restored counts as signed out; a token stored by an older build is removed', async () => {
    storage.setItem(
      'lb.auth',
      JSON.stringify({ kind: 'password', email: 'ada@example.com', refreshToken: 'old' }),
    );
    storage.setItem('lb.session', '{"role":"manager"}');
    answers({
      refreshSession: new ApiError('UNAUTHENTICATED', 'Your session has ended. Please sign in again.'),
    });
    const { ensureSession, useSession } = await import('../../web/src/auth/sessionStore');
    await ensureSession();
    expect(api).toHaveBeenCalledWith('refreshSession', {});
    expect(useSession.getState().status).toBe('signedOut');
    expect(storage.getItem('lb.session')).toBeNull();
    expect(storage.getItem('lb.auth')).toBeNull();
  });

  it('signing out asks the server to end the sessions and clear the cookie', async () => {
    answers({ signIn: session, getMe: me, signOut: { ok: true } });
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await useSession.getState().signIn('ada@example.com', 'secret-pass');
    api.mockClear();
    await useSession.getState().signOut();
    expect(api).toHaveBeenCalledWith('signOut', {});
    expect(storage.getItem('lb.auth')).toBeNull();
    expect(await handlers.token?.()).toBeUndefined();
  });
});

describe('a social session', () => {
  beforeEach(async () => {
    storage.clear();
    api.mockReset();
    answers({ signOut: { ok: true } });
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await useSession.getState().signOut();
    api.mockReset();
    social.leaveHostedSignIn.mockClear();
  });

  it('sends the code and verifier to our API, which answers like a password sign-in (no token kept by a script)', async () => {
    answers({ completeSocialSignIn: session, getMe: me });
    const { completeSocialSignIn } = await import('../../web/src/auth/session');
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await completeSocialSignIn();
    expect(api).toHaveBeenCalledWith('completeSocialSignIn', {
      authorizationCode: 'code-1',
      codeVerifier: 'v'.repeat(43),
    });
    expect(useSession.getState()).toMatchObject({ status: 'signedIn', me });
    expect(JSON.parse(storage.getItem('lb.auth') ?? '')).toEqual({ kind: 'social' });
    expect(await handlers.token?.()).toBe('access-1');
  });

  it('after MFA_REQUIRED takes the code alone; a wrong one leaves the person signed out to retry', async () => {
    answers({
      completeSocialSignIn: new ApiError(
        'MFA_REQUIRED',
        'Enter the 6-digit code from your authenticator app.',
      ),
    });
    const { completeSocialSignIn, completeSocialSecondFactor } = await import('../../web/src/auth/session');
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await expect(completeSocialSignIn()).rejects.toMatchObject({ code: 'MFA_REQUIRED' });
    expect(storage.getItem('lb.auth')).toBeNull();

    answers({
      completeSocialSignIn: new ApiError('UNAUTHENTICATED', 'That code is not right.', {
        fields: { code: 'That code is not right.' },
      }),
    });
    await expect(completeSocialSecondFactor('000000')).rejects.toMatchObject({
      fields: { code: 'That code is not right.' },
    });
    expect(useSession.getState().status).toBe('signedOut');

    answers({ completeSocialSignIn: session, getMe: me });
    await completeSocialSecondFactor('123456');
    expect(api).toHaveBeenCalledWith('completeSocialSignIn', { code: '123456' });
    expect(useSession.getState()).toMatchObject({ status: 'signedIn', me });
    expect(JSON.parse(storage.getItem('lb.auth') ?? '')).toEqual({ kind: 'social' });
  });

  it('after PASSWORD_REQUIRED takes the account password alone; a wrong one leaves the person signed out to retry', async () => {
    answers({
      completeSocialSignIn: new ApiError('PASSWORD_REQUIRED', 'An account with this email already exists.'),
    });
    const { completeSocialSignIn, completeSocialPassword } = await import('../../web/src/auth/session');
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await expect(completeSocialSignIn()).rejects.toMatchObject({ code: 'PASSWORD_REQUIRED', status: 401 });
    expect(storage.getItem('lb.auth')).toBeNull();

    answers({
      completeSocialSignIn: new ApiError('UNAUTHENTICATED', 'That password is not right.', {
        fields: { password: 'That password is not right.' },
      }),
    });
    await expect(completeSocialPassword('wrong')).rejects.toMatchObject({
      fields: { password: 'That password is not right.' },
    });
    expect(useSession.getState().status).toBe('signedOut');

    answers({ completeSocialSignIn: session, getMe: me });
    await completeSocialPassword('learning-is-fun');
    expect(api).toHaveBeenCalledWith('completeSocialSignIn', { password: 'learning-is-fun' });
    expect(useSession.getState()).toMatchObject({ status: 'signedIn', me });
    expect(JSON.parse(storage.getItem('lb.auth') ?? '')).toEqual({ kind: 'social' });
  });

  it("signs out on our API first, then through the hosted UI's /logout; a password session skips the latter", async () => {
    answers({ completeSocialSignIn: session, getMe: me, signOut: { ok: true } });
    const { completeSocialSignIn } = await import('../../web/src/auth/session');
    const { useSession } = await import('../../web/src/auth/sessionStore');
    await completeSocialSignIn();
    api.mockClear();
    social.leaveHostedSignIn.mockImplementation(async () => {
      // By the time the browser leaves, our session is over here and on the server.
      expect(api).toHaveBeenCalledWith('signOut', {});
      expect(storage.getItem('lb.auth')).toBeNull();
    });
    await useSession.getState().signOut();
    expect(social.leaveHostedSignIn).toHaveBeenCalledTimes(1);

    answers({ signIn: session, getMe: me, signOut: { ok: true } });
    await useSession.getState().signIn('ada@example.com', 'secret-pass');
    await useSession.getState().signOut();
    expect(social.leaveHostedSignIn).toHaveBeenCalledTimes(1);
  });
});

describe('the API client after a 401', () => {
  function reply(status: number, body: unknown) {
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }
  const unauthenticated = { error: { code: 'UNAUTHENTICATED', message: 'Your session is not valid.' } };

  it('asks for a new token once and retries a signed-in call with it', async () => {
    let token = 'old';
    const sent: (string | null)[] = [];
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get('authorization');
      sent.push(auth);
      return auth === 'Bearer new' ? reply(200, me) : reply(401, unauthenticated);
    });
    const onUnauthorized = vi.fn(async () => {
      token = 'new';
      return true;
    });
    const call = createApiClient({
      baseUrl: 'http://api.test',
      fetch,
      getToken: () => token,
      onUnauthorized,
    });
    await expect(call('getMe', {})).resolves.toEqual(me);
    expect(sent).toEqual(['Bearer old', 'Bearer new']);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('gives up when no new token comes, and never refreshes for a public route', async () => {
    const fetch = vi.fn(async () => reply(401, unauthenticated));
    const onUnauthorized = vi.fn(async () => false);
    const call = createApiClient({
      baseUrl: 'http://api.test',
      fetch,
      getToken: () => 'old',
      onUnauthorized,
    });
    await expect(call('getMe', {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
    expect(fetch).toHaveBeenCalledTimes(1);

    onUnauthorized.mockClear();
    await expect(call('signIn', { email: 'a@b.co', password: 'wrong-one' })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('config.json social sign-in fields', () => {
  it('offers social buttons only with providers, the hosted domain and the return address', async () => {
    const { parseConfig, socialSignInProviders } = await import('../../web/src/config');
    const base = {
      stage: 'aws',
      apiUrl: 'https://api.test',
      region: 'us-east-1',
      userPoolId: 'p',
      userPoolClientId: 'c',
    };
    expect(socialSignInProviders(parseConfig(base))).toEqual([]);
    expect(socialSignInProviders(parseConfig({ ...base, socialProviders: ['Google'] }))).toEqual([]);
    const full = parseConfig({
      ...base,
      socialProviders: ['Google', 'Facebook'],
      oauthDomain: 'app.auth.us-east-1.amazoncognito.com',
      oauthRedirect: 'https://app.test/auth/callback',
    });
    expect(socialSignInProviders(full)).toEqual(['Google', 'Facebook']);
    expect(() => parseConfig({ ...base, socialProviders: ['Twitter'] })).toThrow(/socialProviders/);
  });
});

describe('the /login quotes', () => {
  it('has about 47 short quotes, each with an author, none repeated', async () => {
    const { quotes, randomQuote } = await import('../../web/src/content/quotes');
    expect(quotes.length).toBe(47);
    expect(new Set(quotes.map((q) => q.text)).size).toBe(quotes.length);
    for (const quote of quotes) {
      expect(quote.author.trim()).not.toBe('');
      expect(quote.text.length).toBeLessThanOrEqual(130);
    }
    expect(randomQuote(() => 0)).toBe(quotes[0]);
    expect(randomQuote(() => 0.9999999)).toBe(quotes[quotes.length - 1]);
  });
});

describe('config.json card tokenizer fields', () => {
  const base = {
    stage: 'local',
    apiUrl: 'http://127.0.0.1:3001',
    region: 'us-east-1',
    userPoolId: 'p',
    userPoolClientId: 'c',
  };

  it('reads the publishable key and the Stripe API address', async () => {
    const { parseConfig } = await import('../../web/src/config');
    expect(parseConfig(base).stripe).toBeUndefined();
    expect(
      parseConfig({ ...base, stripe: { publishableKey: 'pk_test_local', apiUrl: 'http://127.0.0.1:3004/' } })
        .stripe,
    ).toEqual({ publishableKey: 'pk_test_local', apiUrl: 'http://127.0.0.1:3004' });
  });

  it.each([
    [{ publishableKey: 'sk_test_secret', apiUrl: 'https://api.stripe.com' }, /publishableKey/],
    [{ publishableKey: 'pk_test_x', apiUrl: 'api.stripe.com' }, /apiUrl/],
    [{ publishableKey: 'pk_test_x', apiUrl: 'https://api.stripe.com/v1' }, /apiUrl/],
    ['pk_test_x', /"stripe"/],
  ])('refuses %j (a secret key would be served to every visitor)', async (stripe, message) => {
    const { parseConfig } = await import('../../web/src/config');
    expect(() => parseConfig({ ...base, stripe })).toThrow(message);
  });
});

describe('the API client after STEP_UP_REQUIRED', () => {
  const stepUpRequired = { error: { code: 'STEP_UP_REQUIRED', message: 'Please confirm it is you.' } };
  const refuse = () =>
    new Response(JSON.stringify(stepUpRequired), {
      status: 403,
      headers: { 'content-type': 'application/json' },
    });
  const redeem = (call: ReturnType<typeof createApiClient>) =>
    call('redeemFunds', { deletedUserIds: ['u1'] }, { idempotencyKey: 'redeem-key-1' });

  it('a cancelled step-up rejects as cancelled, which callers report as nothing, and sends nothing more', async () => {
    const fetch = vi.fn(async () => refuse());
    // Fresh when asked before sending, stale by the time the server looked: asked again, cancelled.
    const call = createApiClient({
      baseUrl: 'http://api.test',
      fetch,
      getToken: () => 't',
      onStepUp: async ({ ifNeeded }) => ifNeeded,
    });
    const failure = await redeem(call).catch((error: unknown) => error);
    expect(isStepUpCancelled(failure)).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('with nothing to ask the person, the refusal stands as the server said it', async () => {
    const fetch = vi.fn(async () => refuse());
    const call = createApiClient({
      baseUrl: 'http://api.test',
      fetch,
      getToken: () => 't',
      onStepUp: async () => undefined,
    });
    const failure = await redeem(call).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'STEP_UP_REQUIRED', status: 403 });
    expect(isStepUpCancelled(failure)).toBe(false);
  });
});

describe('the API client before a request that needs a fresh factor', () => {
  const done = () =>
    new Response(JSON.stringify({ amountCents: 100, feeCents: 0 }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });

  it("asks before sending an 'always' route, and sends nothing when the person cancels", async () => {
    const fetch = vi.fn(async () => done());
    const asked: boolean[] = [];
    const call = createApiClient({
      baseUrl: 'http://api.test',
      fetch,
      getToken: () => 't',
      onStepUp: async ({ ifNeeded }) => {
        asked.push(ifNeeded);
        return false;
      },
    });
    const failure = await call('redeemFunds', { deletedUserIds: ['u1'] }, { idempotencyKey: 'k' }).catch(
      (error: unknown) => error,
    );
    expect(isStepUpCancelled(failure)).toBe(true);
    expect(asked).toEqual([true]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks before an above-threshold route only when told it passes the threshold, then sends once', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ results: [] }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    const asked: boolean[] = [];
    const call = createApiClient({
      baseUrl: 'http://api.test',
      fetch,
      getToken: () => 't',
      onStepUp: async ({ ifNeeded }) => {
        asked.push(ifNeeded);
        return true;
      },
    });
    const input = { userIds: ['u1'], amount: 100 };
    await call('depositFunds', input, { idempotencyKey: 'a' });
    expect(asked).toEqual([]);
    await call('depositFunds', input, { idempotencyKey: 'b', freshFactor: true });
    expect(asked).toEqual([true]);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
