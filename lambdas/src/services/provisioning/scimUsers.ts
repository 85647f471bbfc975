/**
 * SCIM Users (RFC 7644) for a team's identity provider, on top of the
 * existing people rules - nothing here moves money or sets a budget by itself:
 * - create = an invitation at the team's provisioning budget (or its
 *   department's), counted against the daily deposit limit; refused, nobody
 *   is invited and the IdP gets 429 with the limit's words (it retries later);
 * - `active: false` or DELETE = the manager's delete for a member (card
 *   cancelled, money to the pool, billing stops) or the withdrawal of a
 *   pending invitation, and the manager is e-mailed;
 * - `active: true` again = a new invitation for someone who had not joined;
 *   for a member removed (by SCIM, the manager or their last day) before the
 *   team's next billing day, the member restored as they were: a new card,
 *   their money still in the pool back on it, billed again (employees'
 *   `reactivateEmployee`), the manager e-mailed. After that day it is refused
 *   with `mutability` and the reason (docs/scim.md).
 * The SCIM id is ours, fixed at creation: the same person from invitation to
 * member. userName, the invitation address and externalId are unique in the
 * team (409 `uniqueness`, as Okta and Entra expect for a duplicate create).
 */
import {
  listResponse,
  pageOf,
  parseUserFilter,
  readPatch,
  readUserResource,
  SCHEMA,
  SCIM_TYPE_FIELD,
  type ScimType,
  type ScimUserFields,
} from '@shared/domain/scim';
import { AppError, type ErrorCode } from '@shared/errors';
import { isInvitableEmail } from '@shared/schemas/invitations';
import { newId } from '../../adapters/clock';
import { getEmailOwner, getInvitation, getTeam, type TeamRecord } from '../../data/accounts';
import {
  createScimUser,
  findScimUser,
  getScimUser,
  listScimUsers,
  provisioningActorId,
  releaseScimUser,
  replaceScimUser,
  ScimClaimTaken,
  ScimUserChanged,
  type ScimUserRecord,
  settleScimUser,
} from '../../data/provisioning';
import { getUser, type UserRecord } from '../../data/users';
import type { Actor, ProvisioningCaller } from '../../platform/auth';
import { deleteEmployees, inviteProvisioned, reactivateEmployee, withdrawInvitations } from '../employees';
import { sendProvisioningReactivationEmail, sendProvisioningRemovalEmail } from './provisioningEmails';
import { type ProvisioningSettings, provisioningBudget, scimBaseUrl } from './tokens';

/** The largest page a list answers (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 200;

function scimError(code: ErrorCode, detail: string, scimType?: ScimType, headers?: Record<string, string>) {
  return new AppError(code, detail, {
    ...(scimType ? { fields: { [SCIM_TYPE_FIELD]: scimType } } : {}),
    ...(headers ? { headers } : {}),
  });
}

const NOT_FOUND = (id: string) => scimError('NOT_FOUND', `User ${id} not found.`);

// --- The resource ---------------------------------------------------------------------

export function userResource(user: ScimUserRecord) {
  const formatted = [user.givenName, user.familyName].filter(Boolean).join(' ');
  return {
    schemas: user.department ? [SCHEMA.user, SCHEMA.enterpriseUser] : [SCHEMA.user],
    id: user.scimId,
    ...(user.externalId ? { externalId: user.externalId } : {}),
    userName: user.userName,
    name: {
      ...(user.givenName ? { givenName: user.givenName } : {}),
      ...(user.familyName ? { familyName: user.familyName } : {}),
      ...(formatted ? { formatted } : {}),
    },
    ...(formatted ? { displayName: formatted } : {}),
    emails: [{ value: user.email, type: 'work', primary: true }],
    active: user.active,
    ...(user.department ? { [SCHEMA.enterpriseUser]: { department: user.department } } : {}),
    meta: {
      resourceType: 'User',
      created: user.createdAt,
      lastModified: user.updatedAt,
      location: `${scimBaseUrl()}/Users/${user.scimId}`,
    },
  };
}

// --- Reading -----------------------------------------------------------------------------

export async function listUsers(
  caller: ProvisioningCaller,
  query: { filter?: string; startIndex?: string; count?: string },
) {
  const page = pageOf(query.startIndex, query.count, SCIM_MAX_RESULTS);
  let users: ScimUserRecord[];
  if (query.filter !== undefined && query.filter.trim() !== '') {
    const filter = parseUserFilter(query.filter);
    if ('error' in filter) throw scimError('VALIDATION_FAILED', filter.error, 'invalidFilter');
    const found = await findScimUser(caller.teamId, filter.attribute, filter.value);
    users = found ? [await asSeenNow(caller, found)] : [];
  } else users = await listScimUsers(caller.teamId);
  const slice = users.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  return listResponse(slice.map(userResource), users.length, page.startIndex);
}

async function ownUser(caller: ProvisioningCaller, id: string): Promise<ScimUserRecord> {
  // Ids are ULIDs; anything else names nobody (and is never a key of another team: the team is in the key).
  const user = /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id) ? await getScimUser(caller.teamId, id) : undefined;
  if (!user) throw NOT_FOUND(id);
  return user;
}

export async function getUserResource(caller: ProvisioningCaller, id: string) {
  return userResource(await asSeenNow(caller, await ownUser(caller, id)));
}

/**
 * A SCIM user as the IdP should read it: inactive once the member behind it
 * was removed, whoever removed them. Removals store that on the SCIM user
 * (accounts' removeUser); this also covers people removed before they did.
 * (The unfiltered list reads what is stored: one read per person is too many.)
 */
async function asSeenNow(caller: ProvisioningCaller, user: ScimUserRecord): Promise<ScimUserRecord> {
  if (!user.active) return user;
  return (await memberOf(caller, user))?.status === 'deleted' ? { ...user, active: false } : user;
}

// --- Who the person is now --------------------------------------------------------------

/**
 * The team's member behind a SCIM user, if they joined (or were adopted):
 * the account of the invitation address, when it is an employee of this team.
 */
async function memberOf(caller: ProvisioningCaller, user: ScimUserRecord): Promise<UserRecord | undefined> {
  const userId = user.userId ?? (await getEmailOwner(user.email, true));
  const member = userId ? await getUser(userId) : undefined;
  return member?.teamId === caller.teamId && member.role === 'employee' ? member : undefined;
}

/** The one acting for removals: the token, within its team (deleteAccount checks the team). */
function provisioningActor(caller: ProvisioningCaller): Actor {
  return {
    userId: provisioningActorId(caller.tokenId),
    email: '',
    // Only the removal rules read this: a manager's delete of an employee of the same team.
    role: 'manager',
    teamId: caller.teamId,
    status: 'active',
    emailVerified: true,
  };
}

function inviter(caller: ProvisioningCaller) {
  return {
    teamId: caller.teamId,
    managerId: caller.createdBy,
    auditActorId: provisioningActorId(caller.tokenId),
  };
}

/** Seconds to 00:00 UTC, when the daily limit starts again: the IdP's Retry-After. */
function untilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Invites for the IdP. The daily limit's refusal becomes a 429 with its words
 * and a Retry-After at the next UTC day: Okta and Entra retry a 429 later, so
 * a wave of new people over the limit arrives over the following days.
 */
async function invite(caller: ProvisioningCaller, user: ScimUserRecord, now: Date) {
  try {
    return await inviteProvisioned(
      inviter(caller),
      user.email,
      user.budgetCents,
      `${user.scimId}#${now.getTime()}`,
      now,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'LIMIT_EXCEEDED') {
      throw scimError('RATE_LIMITED', error.message, undefined, {
        'Retry-After': String(untilNextUtcDay(now)),
      });
    }
    throw error;
  }
}

// --- Create -------------------------------------------------------------------------------

function readResource(body: Record<string, unknown>): ScimUserFields {
  const fields = readUserResource(body);
  if ('error' in fields) throw scimError('VALIDATION_FAILED', fields.error, fields.scimType);
  if (!isInvitableEmail(fields.email)) {
    throw scimError(
      'VALIDATION_FAILED',
      'The person needs an e-mail address: send it as userName or as the primary of emails.',
      'invalidValue',
    );
  }
  return fields;
}

function uniqueness(attribute: string) {
  return scimError('CONFLICT', `A user with this ${attribute} already exists in this team.`, 'uniqueness');
}

export async function createUser(caller: ProvisioningCaller, body: Record<string, unknown>, now: Date) {
  const fields = readResource(body);
  const team = (await getTeam(caller.teamId)) as (TeamRecord & ProvisioningSettings) | undefined;
  if (!team) throw NOT_FOUND('team');
  const at = now.toISOString();
  const user: ScimUserRecord = {
    ...fields,
    teamId: caller.teamId,
    scimId: newId(now),
    state: 'creating',
    budgetCents: provisioningBudget(team, fields.department),
    createdAt: at,
    updatedAt: at,
    createdBy: caller.tokenId,
  };
  try {
    await createScimUser(user);
  } catch (error) {
    if (error instanceof ScimClaimTaken) throw uniqueness(error.attribute);
    throw error;
  }
  // An inactive person is only recorded: invited when the IdP activates them.
  if (!user.active) return userResource(await settleScimUser(user, { budgetCents: user.budgetCents }, at));
  let outcome: Awaited<ReturnType<typeof inviteProvisioned>>;
  try {
    outcome = await invite(caller, user, now);
  } catch (error) {
    await releaseScimUser(user, 'refused', at);
    throw error;
  }
  if (outcome.result === 'elsewhere') {
    await releaseScimUser(user, 'refused', at);
    throw uniqueness('e-mail address (it belongs to another team)');
  }
  if (outcome.result === 'member') {
    const member = await getUser(outcome.userId);
    if (member?.status === 'deleted') {
      await releaseScimUser(user, 'refused', at);
      throw scimError(
        'CONFLICT',
        'This person was removed from the team; a removed person cannot be added again with the same address.',
        'uniqueness',
      );
    }
    return userResource(
      await settleScimUser(
        user,
        { budgetCents: member?.budgetCents ?? user.budgetCents, userId: outcome.userId },
        at,
      ),
    );
  }
  const budgetCents = outcome.result === 'alreadyInvited' ? outcome.budgetCents : user.budgetCents;
  return userResource(await settleScimUser(user, { budgetCents }, at));
}

// --- Changes ------------------------------------------------------------------------------

/**
 * Removes the person as a manager's delete does (a member) or withdraws their
 * invitation (not joined yet), and e-mails the manager who made the token.
 * Nothing to do for someone already gone.
 */
async function remove(caller: ProvisioningCaller, user: ScimUserRecord, now: Date) {
  const actor = provisioningActor(caller);
  const member = await memberOf(caller, user);
  let removed = false;
  if (member) {
    if (member.status !== 'deleted') {
      await deleteEmployees(actor, [member.userId], now);
      removed = true;
    }
  } else {
    const pending = await getInvitation(user.email, true);
    if (pending?.teamId === caller.teamId) {
      const [result] = (await withdrawInvitations(actor, [user.email], now)).results;
      removed = result?.result === 'withdrawn';
    }
  }
  if (removed) {
    await sendProvisioningRemovalEmail(caller, {
      email: user.email,
      name: member ? `${member.firstName} ${member.lastName}` : undefined,
      joined: Boolean(member),
    });
  }
}

/**
 * Active again: invites again someone who had not joined; restores a member
 * removed since the team's last billing day (or finishes a restore cut off),
 * and e-mails the manager once; after that day, refused with the reason.
 */
async function reactivate(caller: ProvisioningCaller, user: ScimUserRecord, now: Date) {
  const member = await memberOf(caller, user);
  if (member && (member.status === 'deleted' || member.restoring)) {
    let restored: Awaited<ReturnType<typeof reactivateEmployee>>;
    try {
      restored = await reactivateEmployee(provisioningActor(caller), member.userId, now);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RULE_VIOLATED')
        throw scimError('VALIDATION_FAILED', error.message, 'mutability');
      throw error;
    }
    if (restored.restored) {
      await sendProvisioningReactivationEmail(caller, {
        email: user.email,
        name: `${member.firstName} ${member.lastName}`,
        pooledCents: restored.pooledCents,
        returnedCents: restored.returnedCents,
      });
    }
    return;
  }
  if (member) return;
  const outcome = await invite(caller, user, now);
  if (outcome.result === 'elsewhere') throw uniqueness('e-mail address (it belongs to another team)');
}

/** Stores `after` in place of `before`, then carries out an active change (undone if refused). */
async function change(caller: ProvisioningCaller, before: ScimUserRecord, fields: ScimUserFields, now: Date) {
  if (fields.email !== before.email) {
    throw scimError(
      'VALIDATION_FAILED',
      'The e-mail address the person was invited with cannot change. Remove them and add them again.',
      'mutability',
    );
  }
  const after: ScimUserRecord = { ...before, ...fields, updatedAt: now.toISOString() };
  // Active as the IdP should see it: not a member who was removed (however), or is being restored.
  const member = before.active ? await memberOf(caller, before) : undefined;
  const wasActive = before.active && member?.status !== 'deleted' && !member?.restoring;
  try {
    await replaceScimUser(before, after);
  } catch (error) {
    if (error instanceof ScimClaimTaken) throw uniqueness(error.attribute);
    throw error;
  }
  if (wasActive && !after.active) await remove(caller, after, now);
  else if (!wasActive && after.active) {
    try {
      await reactivate(caller, after, now);
    } catch (error) {
      // Not made active: the IdP sees it as it was.
      await replaceScimUser(after, { ...before, updatedAt: new Date(now.getTime() + 1).toISOString() });
      throw error;
    }
  }
  return userResource(after);
}

/**
 * Runs a change on the user as stored now; one that another call changed
 * between the read and the write (two PATCHes at once) is read and run again,
 * so the second finds the first's outcome (active already: nothing to do).
 */
async function onFreshUser(
  caller: ProvisioningCaller,
  id: string,
  run: (before: ScimUserRecord) => Promise<ReturnType<typeof userResource>>,
) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run(await ownUser(caller, id));
    } catch (error) {
      if (!(error instanceof ScimUserChanged) || attempt >= 4) throw error;
    }
  }
}

export async function replaceUser(
  caller: ProvisioningCaller,
  id: string,
  body: Record<string, unknown>,
  now: Date,
) {
  const fields = readResource(body);
  return onFreshUser(caller, id, (before) => change(caller, before, fields, now));
}

export async function patchUser(
  caller: ProvisioningCaller,
  id: string,
  body: Record<string, unknown>,
  now: Date,
) {
  const patch = readPatch(body);
  if ('error' in patch) throw scimError('VALIDATION_FAILED', patch.error, patch.scimType);
  return onFreshUser(caller, id, (before) => patchOn(caller, before, patch, now));
}

function patchOn(
  caller: ProvisioningCaller,
  before: ScimUserRecord,
  patch: Exclude<ReturnType<typeof readPatch>, { error: string }>,
  now: Date,
) {
  const {
    teamId: _t,
    scimId: _s,
    state: _st,
    budgetCents: _b,
    createdAt: _c,
    updatedAt: _u,
    createdBy: _by,
    userId: _id,
    ...fields
  } = before;
  return change(caller, before, { ...fields, ...patch } as ScimUserFields, now);
}

export async function deleteUser(caller: ProvisioningCaller, id: string, now: Date) {
  const user = await ownUser(caller, id);
  if (user.active) await remove(caller, user, now);
  await releaseScimUser(user, 'deleted', now.toISOString());
}
