/**
 * Who is calling. The JWT proves the Cognito identity (issuer, signature, expiry,
 * our app client, an access token); the role, team and status come from our
 * table on every call, so a claim alone never grants anything and a deleted
 * user is locked out at once.
 */

import { createHash } from 'node:crypto';
import { AppError } from '@shared/errors';
import type { Role, UserStatus } from '@shared/schemas/me';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { lookupProvisioningToken } from '../data/provisioning';
import { getUser } from '../data/users';
import { isWebAccessTokenOurs } from '../data/webAccessTokens';
import { authConfig } from './config';

export interface Actor {
  userId: string;
  email: string;
  role: Role;
  teamId: string;
  status: UserStatus;
  emailVerified: boolean;
  /** The access token's own id (jti): a step-up is proven for one token, not the whole account. Absent for actors not signed in by a token (the demo seed). */
  tokenId?: string;
}

/**
 * JWKS fetched with the platform's fetch: works for Cognito's https endpoint
 * and for cognito-local's http one, so both run the same verification.
 */
const jwksFetcher = {
  fetch: async (uri: string): Promise<ArrayBuffer> => {
    const response = await fetch(uri, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) throw new Error(`JWKS fetch failed with ${response.status}`);
    return response.arrayBuffer();
  },
};

type Verifier = { verify(token: string): Promise<{ sub?: unknown; [claim: string]: unknown }> };
let verifier: Verifier | undefined;

function accessTokenVerifier(): Verifier {
  if (!verifier) {
    const { COGNITO_ISSUER, COGNITO_CLIENT_ID, COGNITO_WEB_CLIENT_ID, COGNITO_JWKS_URI } = authConfig();
    // Password sessions come from the API's confidential client, social ones from the hosted UI's.
    const clients = new Set([COGNITO_CLIENT_ID, ...(COGNITO_WEB_CLIENT_ID ? [COGNITO_WEB_CLIENT_ID] : [])]);
    verifier = JwtRsaVerifier.create(
      {
        issuer: COGNITO_ISSUER,
        audience: null,
        jwksUri: COGNITO_JWKS_URI ?? `${COGNITO_ISSUER.replace(/\/$/, '')}/.well-known/jwks.json`,
        customJwtCheck: ({ payload }) => {
          if (payload.token_use !== 'access') throw new Error('Not an access token');
          if (!clients.has(String(payload.client_id))) throw new Error('Token was issued to another client');
        },
      },
      { jwksCache: new SimpleJwksCache({ fetcher: jwksFetcher }) },
    ) as Verifier;
  }
  return verifier;
}

export type AccessTokenClaims = { sub: string; [claim: string]: unknown };

/** Cognito (and cognito-local) access tokens carry a jti; `origin_jti` names the sign-in, not the token. */
export function tokenIdOf(claims: { [claim: string]: unknown }): string {
  return typeof claims.jti === 'string' && claims.jti !== '' ? claims.jti : `iat-${String(claims.iat)}`;
}

/** The claims of a token Cognito just handed us (not verified: for our own bookkeeping only). */
export function unverifiedClaims(token: string): { [claim: string]: unknown } {
  try {
    return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  } catch {
    return {};
  }
}

/**
 * Verifies a bearer access token (issuer, signature, expiry, client, token use)
 * and returns its claims. The local gateway uses this as its JWT authorizer.
 */
export async function verifyBearer(authorization: string | undefined): Promise<AccessTokenClaims> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) throw new AppError('UNAUTHENTICATED', 'Sign in to continue.');
  try {
    const payload = await accessTokenVerifier().verify(match[1]);
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new Error('No subject');
    return payload as AccessTokenClaims;
  } catch {
    // Never echo why: the reason helps an attacker more than a user.
    throw new AppError('UNAUTHENTICATED', 'Your session is not valid. Please sign in again.');
  }
}

/**
 * Loads the actor for verified claims. Unknown and deleted users are not signed
 * in, and neither is a token issued before the user's sessions were ended
 * (password reset, account deleted).
 */
export async function loadActor(claims: AccessTokenClaims): Promise<Actor> {
  const user = await getUser(claims.sub);
  const issuedAt = typeof claims.iat === 'number' ? claims.iat : 0;
  const refused = new AppError('UNAUTHENTICATED', 'Your session is not valid. Please sign in again.');
  if (!user || user.status === 'deleted' || issuedAt < (user.sessionsValidAfter ?? 0)) throw refused;
  // A web-client (social) token counts only if our API issued it: see data/webAccessTokens.ts.
  const { COGNITO_CLIENT_ID, COGNITO_WEB_CLIENT_ID } = authConfig();
  if (
    claims.client_id !== COGNITO_CLIENT_ID &&
    claims.client_id === COGNITO_WEB_CLIENT_ID &&
    !(await isWebAccessTokenOurs(user.userId, tokenIdOf(claims)))
  ) {
    throw refused;
  }
  return {
    userId: user.userId,
    email: user.email,
    role: user.role,
    teamId: user.teamId,
    status: user.status,
    emailVerified: user.emailVerified,
    tokenId: tokenIdOf(claims),
  };
}

// --- Provisioning tokens (SCIM) ----------------------------------------------------

/** Every provisioning token starts so: recognisable in a leak scan, and told apart from a session token at once. */
export const PROVISIONING_TOKEN_PREFIX = 'lbscim_';

/** The stored form of a provisioning token: its SHA-256. The token has 256 random bits, so no salt or stretching is needed. */
export function provisioningTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A team's identity provider, calling with a provisioning token. */
export interface ProvisioningCaller {
  teamId: string;
  tokenId: string;
  /** The token's name ("Okta"): the Activity Log names it as the one who acted. */
  tokenName: string;
  /** The manager who made the token: invitations go out in their name. */
  createdBy: string;
}

const PROVISIONING_REFUSED = 'The provisioning token is missing, unknown or revoked.';

/**
 * The team a provisioning token opens, read consistently on every call, so a
 * revoked token is refused from the next call on. Never says why a token is
 * refused (unknown and revoked look the same).
 */
export async function verifyProvisioningToken(
  authorization: string | undefined,
): Promise<ProvisioningCaller> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  const token = match?.[1];
  if (!token?.startsWith(PROVISIONING_TOKEN_PREFIX) || token.length > 200) {
    throw new AppError('UNAUTHENTICATED', PROVISIONING_REFUSED);
  }
  const lookup = await lookupProvisioningToken(provisioningTokenHash(token));
  if (!lookup || lookup.revokedAt) throw new AppError('UNAUTHENTICATED', PROVISIONING_REFUSED);
  return {
    teamId: lookup.teamId,
    tokenId: lookup.tokenId,
    tokenName: lookup.name,
    createdBy: lookup.createdBy,
  };
}
