/**
 * What stands in front of cognito-local, at the local Cognito's address: every
 * call passes through to it unchanged, except the one identity-provider call
 * cognito-local (5.3) lacks, AdminLinkProviderForUser, which this keeps
 * itself with the rules of Cognito's that our code relies on:
 *
 * - the destination must be a user of the pool;
 * - an identity that already has a user of its own in the pool (a federated
 *   user, `identities` naming it) is refused: Cognito says "Merging is not
 *   currently supported", so that user must be deleted first;
 * - an identity is linked to one user only; deleting that user ends its links.
 *
 * The links live in memory: social sign-in is off under `npm start`, and the
 * tests' hosted-UI stand-in (test/support/hostedUiStandIn.ts) reads them at
 * `GET /_local/identityLinks/<provider>/<provider's user id>` (the linked
 * user's username, or 404), as Cognito's hosted UI would follow them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';

export interface CognitoFront {
  endpoint: string;
  stop(): Promise<void>;
}

interface PoolUser {
  Username: string;
  Attributes?: { Name: string; Value?: string }[];
}

class CognitoRefusal extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** The identities a federated user stands for (its `identities` attribute), as `Provider:userId`. */
function identitiesOf(user: PoolUser): string[] {
  const raw = user.Attributes?.find((a) => a.Name === 'identities')?.Value;
  if (!raw) return [];
  try {
    const list = JSON.parse(raw) as { providerName?: unknown; userId?: unknown }[];
    return list.map((i) => `${String(i.providerName)}:${String(i.userId)}`);
  } catch {
    return [];
  }
}

export async function startCognitoFront(options: { port: number; target: string }): Promise<CognitoFront> {
  /** `Provider:userId` -> the linked user's username. */
  const links = new Map<string, string>();

  async function call<T>(operation: string, body: unknown): Promise<T> {
    const response = await fetch(options.target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': `${TARGET_PREFIX}${operation}`,
      },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as T & { __type?: string; message?: string };
    if (!response.ok)
      throw new CognitoRefusal(answer.__type ?? 'InternalErrorException', answer.message ?? '');
    return answer;
  }

  async function userOf(poolId: string, username: string): Promise<PoolUser | undefined> {
    try {
      return await call<PoolUser>('AdminGetUser', { UserPoolId: poolId, Username: username });
    } catch (error) {
      if (error instanceof CognitoRefusal && error.type === 'UserNotFoundException') return undefined;
      throw error;
    }
  }

  async function linkProvider(request: {
    UserPoolId?: string;
    DestinationUser?: { ProviderName?: string; ProviderAttributeValue?: string };
    SourceUser?: { ProviderName?: string; ProviderAttributeName?: string; ProviderAttributeValue?: string };
  }): Promise<object> {
    const poolId = request.UserPoolId ?? '';
    const { DestinationUser: to, SourceUser: from } = request;
    if (to?.ProviderName !== 'Cognito' || !to.ProviderAttributeValue) {
      throw new CognitoRefusal('InvalidParameterException', 'DestinationUser must be a Cognito user');
    }
    if (
      !from?.ProviderName ||
      from.ProviderAttributeName !== 'Cognito_Subject' ||
      !from.ProviderAttributeValue
    ) {
      throw new CognitoRefusal(
        'InvalidParameterException',
        'SourceUser must name a provider and its subject',
      );
    }
    const destination = await userOf(poolId, to.ProviderAttributeValue);
    if (!destination) throw new CognitoRefusal('UserNotFoundException', 'User does not exist.');
    const identity = `${from.ProviderName}:${from.ProviderAttributeValue}`;
    const { Users = [] } = await call<{ Users?: PoolUser[] }>('ListUsers', { UserPoolId: poolId });
    if (Users.some((user) => identitiesOf(user).includes(identity))) {
      throw new CognitoRefusal(
        'InvalidParameterException',
        'Merging is not currently supported, provide a SourceUser that has not been signed up in order to link',
      );
    }
    const linked = links.get(identity);
    if (linked && linked !== destination.Username) {
      throw new CognitoRefusal(
        'InvalidParameterException',
        'The SourceUser is already linked to another user',
      );
    }
    links.set(identity, destination.Username);
    return {};
  }

  async function readBody(req: IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async function passThrough(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || ['host', 'connection', 'content-length'].includes(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const response = await fetch(`${options.target}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      redirect: 'manual',
    });
    const answer = Buffer.from(await response.arrayBuffer());
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
        out[name] = value;
    });
    res.writeHead(response.status, out);
    res.end(answer);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const body = await readBody(req);
    const linkPath = /^\/_local\/identityLinks\/([^/]+)\/([^/]+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && linkPath) {
      const username = links.get(
        `${decodeURIComponent(linkPath[1] ?? '')}:${decodeURIComponent(linkPath[2] ?? '')}`,
      );
      res.writeHead(username ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(username ? { username } : {}));
      return;
    }
    const target = String(req.headers['x-amz-target'] ?? '');
    if (req.method === 'POST' && target === `${TARGET_PREFIX}AdminLinkProviderForUser`) {
      try {
        const answer = await linkProvider(JSON.parse(body.toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(answer));
      } catch (error) {
        if (!(error instanceof CognitoRefusal)) throw error;
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: error.type, message: error.message }));
      }
      return;
    }
    if (req.method === 'POST' && target === `${TARGET_PREFIX}AdminDeleteUser`) {
      // Deleting a user ends the links to it, as in Cognito.
      const request = JSON.parse(body.toString('utf8')) as { UserPoolId?: string; Username?: string };
      const user = await userOf(request.UserPoolId ?? '', request.Username ?? '');
      await passThrough(req, res, body);
      if (user && res.statusCode === 200) {
        for (const [identity, username] of links) if (username === user.Username) links.delete(identity);
      }
      return;
    }
    await passThrough(req, res, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ __type: 'InternalErrorException', message: String(error) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
