/**
 * SCIM 2.0 (RFC 7643 resources, RFC 7644 protocol) as far as the team's
 * identity provider needs it to add and remove people: the filters Okta and
 * Microsoft Entra ID send, their PATCH forms, the error body and the
 * discovery documents. Pure: the handlers and services do the I/O.
 *
 * What Okta and Entra actually send (their published SCIM guides):
 * - Okta: `GET /Users?filter=userName eq "a@b.c"&startIndex=1&count=100`;
 *   deactivation `PATCH {"Operations":[{"op":"replace","value":{"active":false}}]}`.
 * - Entra: `GET /Users?filter=userName eq "a@b.c"` (and `externalId eq`);
 *   `PATCH {"Operations":[{"op":"Replace","path":"active","value":"False"}]}` -
 *   a capitalised op and booleans as strings; `Add`/`Replace` with paths such
 *   as `name.givenName` or `emails[type eq "work"].value`.
 */

export const SCIM_CONTENT_TYPE = 'application/scim+json';

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** RFC 7644 3.12 `scimType` values we answer with. */
export type ScimType =
  | 'uniqueness'
  | 'invalidFilter'
  | 'invalidValue'
  | 'invalidSyntax'
  | 'mutability'
  | 'noTarget';

export interface ScimErrorBody {
  schemas: [typeof SCHEMA.error];
  status: string;
  scimType?: ScimType;
  detail: string;
}

/** The RFC 7644 3.12 error body; `status` is a string there. */
export function scimErrorBody(status: number, detail: string, scimType?: ScimType): ScimErrorBody {
  return { schemas: [SCHEMA.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/** Where a scimType is carried through our one error type: `fields.scimType` (platform/http.ts reads it). */
export const SCIM_TYPE_FIELD = 'scimType';

// --- Filters -------------------------------------------------------------------

/** The filters we serve: equality on the two attributes an IdP looks people up by. */
export type UserFilter = { attribute: 'userName' | 'externalId'; value: string };

/**
 * Parses `userName eq "x"` / `externalId eq "x"` (attribute names and the
 * operator are case-insensitive, RFC 7644 3.4.2.2). Anything else is an
 * `invalidFilter`, answered as such rather than ignored (ignoring it would
 * list everyone, and an IdP would link the wrong person).
 */
export function parseUserFilter(filter: string): UserFilter | { error: string } {
  const match = /^\s*([A-Za-z.:0-9]+)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  if (!match) return { error: 'Only `userName eq "..."` and `externalId eq "..."` filters are supported.' };
  const attribute = (match[1] as string).toLowerCase().replace(`${SCHEMA.user.toLowerCase()}:`, '');
  const value = (match[2] as string).replace(/\\(.)/g, '$1');
  if (attribute === 'username') return { attribute: 'userName', value };
  if (attribute === 'externalid') return { attribute: 'externalId', value };
  return { error: `Filtering by ${match[1]} is not supported; use userName or externalId.` };
}

/** RFC 7644 3.4.2.4: startIndex is 1-based (below 1 counts as 1), count is not negative. */
export function pageOf(startIndex: unknown, count: unknown, maxCount: number) {
  const start = Math.max(1, Math.trunc(Number(startIndex ?? 1)) || 1);
  const rawCount = count === undefined || count === '' ? maxCount : Math.trunc(Number(count));
  const size = Number.isFinite(rawCount) ? Math.min(maxCount, Math.max(0, rawCount)) : maxCount;
  return { startIndex: start, count: size };
}

// --- The user resource as we keep it ---------------------------------------------

/** What we keep of a SCIM user: the fields an IdP sends that mean something here. */
export interface ScimUserFields {
  userName: string;
  externalId?: string;
  givenName?: string;
  familyName?: string;
  /** The invitation address: the primary (or first) e-mail, else userName. */
  email: string;
  active: boolean;
  /** Enterprise extension `department`: picks the budget when the team maps it. */
  department?: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Entra sends booleans as "True"/"False". */
export function scimBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function primaryEmail(emails: unknown): string | undefined {
  if (!Array.isArray(emails)) return undefined;
  const list = emails.filter(isObject);
  const chosen =
    list.find((e) => scimBoolean(e.primary) === true) ?? list.find((e) => e.type === 'work') ?? list[0];
  return text(chosen?.value);
}

/**
 * Reads a full User resource (POST, PUT). `active` defaults to true (RFC 7643
 * 4.1.1 leaves it to the provider; Okta and Entra both send it).
 */
export function readUserResource(body: Json): ScimUserFields | { error: string; scimType: ScimType } {
  const userName = text(body.userName);
  if (!userName) return { error: 'userName is required.', scimType: 'invalidValue' };
  const name = isObject(body.name) ? body.name : {};
  const enterprise = isObject(body[SCHEMA.enterpriseUser]) ? (body[SCHEMA.enterpriseUser] as Json) : {};
  const active = body.active === undefined ? true : scimBoolean(body.active);
  if (active === undefined) return { error: 'active must be true or false.', scimType: 'invalidValue' };
  const email = (primaryEmail(body.emails) ?? userName).toLowerCase();
  const externalId = text(body.externalId);
  const givenName = text(name.givenName);
  const familyName = text(name.familyName);
  const department = text(enterprise.department);
  return {
    userName,
    email,
    active,
    ...(externalId ? { externalId } : {}),
    ...(givenName ? { givenName } : {}),
    ...(familyName ? { familyName } : {}),
    ...(department ? { department } : {}),
  };
}

// --- PATCH -----------------------------------------------------------------------

/** A PATCH reduced to what it changes of the fields we keep. */
export type UserPatch = Partial<Omit<ScimUserFields, 'email'>> & { email?: string };

/** Sets one attribute by its (lower-cased, schema-less) path. Unknown attributes are ignored (RFC 7644 3.5.2: we keep no others). */
function applyPath(patch: UserPatch, path: string, value: unknown): string | undefined {
  const p = path.toLowerCase().replace(`${SCHEMA.enterpriseUser.toLowerCase()}:`, 'enterprise.');
  if (p === 'active') {
    const active = scimBoolean(value);
    if (active === undefined) return 'active must be true or false.';
    patch.active = active;
  } else if (p === 'username') {
    if (!text(value)) return 'userName must not be empty.';
    patch.userName = text(value);
  } else if (p === 'externalid') patch.externalId = text(value);
  else if (p === 'name.givenname') patch.givenName = text(value);
  else if (p === 'name.familyname') patch.familyName = text(value);
  else if (p === 'enterprise.department') patch.department = text(value);
  else if (p === 'name' && isObject(value)) {
    if ('givenName' in value) patch.givenName = text(value.givenName);
    if ('familyName' in value) patch.familyName = text(value.familyName);
  } else if (p.startsWith('emails')) {
    // `emails`, `emails[type eq "work"].value`, `emails[primary eq true].value`
    const email = p === 'emails' ? primaryEmail(value) : text(value);
    if (email) patch.email = email.toLowerCase();
  }
  return undefined;
}

/**
 * Reads a PatchOp body into one patch. `op` is case-insensitive (Entra sends
 * `Replace`); an op without `path` carries an object of attributes (Okta's
 * `{"op":"replace","value":{"active":false}}`). `remove` clears what may be
 * cleared; removing `active` or `userName` is refused.
 */
export function readPatch(body: Json): UserPatch | { error: string; scimType: ScimType } {
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0) {
    return { error: 'A PATCH needs a list of Operations.', scimType: 'invalidSyntax' };
  }
  const patch: UserPatch = {};
  for (const raw of operations) {
    if (!isObject(raw)) return { error: 'Each operation must be an object.', scimType: 'invalidSyntax' };
    const op = String(raw.op ?? '').toLowerCase();
    const path = text(raw.path);
    if (op === 'add' || op === 'replace') {
      if (path) {
        const problem = applyPath(patch, path, raw.value);
        if (problem) return { error: problem, scimType: 'invalidValue' };
      } else if (isObject(raw.value)) {
        for (const [key, value] of Object.entries(raw.value)) {
          if (key === SCHEMA.enterpriseUser && isObject(value)) {
            for (const [k, v] of Object.entries(value)) applyPath(patch, `enterprise.${k}`, v);
            continue;
          }
          const problem = applyPath(patch, key, value);
          if (problem) return { error: problem, scimType: 'invalidValue' };
        }
      } else return { error: `${raw.op} without a path needs an object value.`, scimType: 'invalidValue' };
    } else if (op === 'remove') {
      if (!path) return { error: 'remove needs a path.', scimType: 'noTarget' };
      const p = path.toLowerCase();
      if (p === 'active' || p === 'username') {
        return { error: `${path} cannot be removed.`, scimType: 'mutability' };
      }
      applyPath(patch, path, undefined);
    } else return { error: `Unknown operation "${String(raw.op)}".`, scimType: 'invalidSyntax' };
  }
  return patch;
}

// --- Discovery ---------------------------------------------------------------------

/** RFC 7643 5: what this service provider supports. */
export function serviceProviderConfig(documentationUri: string, maxResults: number) {
  return {
    schemas: [SCHEMA.serviceProviderConfig],
    documentationUri,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'A provisioning token made on the Provisioning screen of the manager console.',
        documentationUri,
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: '/scim/v2/ServiceProviderConfig' },
  };
}

export function userResourceType() {
  return {
    schemas: [SCHEMA.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A person of the team: invited, then a member.',
    schema: SCHEMA.user,
    schemaExtensions: [{ schema: SCHEMA.enterpriseUser, required: false }],
    meta: { resourceType: 'ResourceType', location: '/scim/v2/ResourceTypes/User' },
  };
}

function attribute(name: string, extra: Json = {}) {
  return {
    name,
    type: 'string',
    multiValued: false,
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...extra,
  };
}

/** RFC 7643 7: the attributes we keep, and nothing we would drop. */
export function schemas() {
  return [
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.user,
      name: 'User',
      description: 'A person of the team',
      attributes: [
        attribute('userName', { required: true, uniqueness: 'server' }),
        attribute('externalId', { caseExact: true }),
        {
          ...attribute('name', { type: 'complex' }),
          subAttributes: [attribute('givenName'), attribute('familyName'), attribute('formatted')],
        },
        attribute('displayName'),
        {
          ...attribute('emails', { type: 'complex', multiValued: true }),
          subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
        },
        attribute('active', { type: 'boolean' }),
      ],
      meta: { resourceType: 'Schema', location: `/scim/v2/Schemas/${SCHEMA.user}` },
    },
    {
      schemas: [SCHEMA.schema],
      id: SCHEMA.enterpriseUser,
      name: 'EnterpriseUser',
      description: 'Enterprise user: the department picks the budget when the team maps it',
      attributes: [attribute('department')],
      meta: { resourceType: 'Schema', location: `/scim/v2/Schemas/${SCHEMA.enterpriseUser}` },
    },
  ];
}

export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return {
    schemas: [SCHEMA.listResponse],
    totalResults,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
