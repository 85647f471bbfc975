/**
 * Google and Facebook sign-in through Cognito's hosted identity providers
 * (decisions.md "Social sign-in"): the only place that imports aws-amplify,
 * and it is loaded only when someone presses a social button or comes back
 * from the provider to /auth/callback. E-mail and password sign-in never
 * comes here (it goes through our API, see ./session.ts).
 */
import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signInWithRedirect, signOut } from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { type AppConfig, loadConfig, type SocialProvider, socialSignInProviders } from '../config';

let configured = false;

function hostOf(domain: string): string {
  return domain.replace(/^https?:\/\//, '').replace(/\/+$/, '');
}

function configure(config: AppConfig): void {
  if (configured) return;
  const providers = socialSignInProviders(config);
  if (providers.length === 0 || !config.oauthDomain || !config.oauthRedirect) {
    throw new Error('Social sign-in is not configured.');
  }
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        loginWith: {
          oauth: {
            domain: hostOf(config.oauthDomain),
            scopes: ['openid', 'email', 'profile'],
            redirectSignIn: [config.oauthRedirect],
            redirectSignOut: [`${window.location.origin}/login`],
            responseType: 'code',
            providers,
          },
        },
      },
    },
  });
  configured = true;
}

export async function startSocialSignIn(provider: SocialProvider): Promise<void> {
  configure(await loadConfig());
  await signInWithRedirect({ provider });
}

export interface SocialTokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  email: string;
}

/** The Cognito tokens Amplify holds (renewed first when `forceRefresh`), or null when there are none. */
export async function currentTokens(forceRefresh = false): Promise<SocialTokens | null> {
  configure(await loadConfig());
  const session = await fetchAuthSession({ forceRefresh });
  const access = session.tokens?.accessToken;
  if (!access) return null;
  const exp = typeof access.payload.exp === 'number' ? access.payload.exp : Date.now() / 1000 + 300;
  const email = session.tokens?.idToken?.payload.email;
  return {
    accessToken: access.toString(),
    expiresIn: Math.max(0, Math.floor(exp - Date.now() / 1000)),
    email: typeof email === 'string' ? email.toLowerCase() : '',
  };
}

/**
 * On /auth/callback: Amplify exchanges the code in the address for tokens
 * (its OAuth listener runs on configure). Resolves with them, or rejects with
 * the provider's error.
 */
export async function completeSocialSignIn(): Promise<SocialTokens> {
  const failure = new Promise<never>((_resolve, reject) => {
    const stop = Hub.listen('auth', ({ payload }) => {
      if (payload.event === 'signInWithRedirect_failure') {
        stop();
        const message = (payload.data as { error?: { message?: string } } | undefined)?.error?.message;
        reject(new Error(message || 'The sign-in with the provider did not complete.'));
      }
    });
  });
  // fetchAuthSession waits for an exchange in flight before answering.
  const tokens = await Promise.race([currentTokens(), failure]);
  if (!tokens) throw new Error('The sign-in with the provider did not complete.');
  return tokens;
}

/** Forgets Amplify's copy of the tokens (this browser only). */
export async function forgetSocialSession(): Promise<void> {
  configure(await loadConfig());
  await signOut();
}
