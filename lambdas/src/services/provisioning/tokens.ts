/**
 * The manager's side of provisioning (Provisioning screen): the SCIM base
 * address, named tokens (shown once, kept as their SHA-256, revoked at once),
 * and the budgets people added by the identity provider get. Each change is
 * in the Activity Log.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '@shared/errors';
import { DEFAULT_BUDGET_DOLLARS } from '@shared/schemas/invitations';
import { MAX_PROVISIONING_TOKENS, type provisioningSettingsInput } from '@shared/schemas/provisioning';
import type { z } from 'zod';
import { newId } from '../../adapters/clock';
import { getTeam, setTeamFields, type TeamRecord } from '../../data/accounts';
import { auditTransactItem, recordAudit } from '../../data/audit';
import {
  getProvisioningToken,
  listProvisioningTokens,
  type ProvisioningTokenRecord,
  putProvisioningToken,
  revokeProvisioningToken,
} from '../../data/provisioning';
import { type Actor, PROVISIONING_TOKEN_PREFIX, provisioningTokenHash } from '../../platform/auth';
import { webConfig } from '../../platform/config';

/** What the team keeps about provisioning, on its record. */
export interface ProvisioningSettings {
  /** Monthly budget of people the IdP adds, in cents; absent: the invitation default ($25). */
  provisioningBudgetCents?: number;
  /** Department (as the IdP sends it, compared case-insensitively) -> budget in cents. */
  provisioningDepartmentBudgets?: { department: string; budgetCents: number }[];
}

export function scimBaseUrl(): string {
  return new URL('/api/scim/v2', webConfig().WEB_ORIGIN).toString();
}

/** The budget the IdP's new person gets: their department's if mapped, else the team's provisioning budget. */
export function provisioningBudget(team: TeamRecord & ProvisioningSettings, department: string | undefined) {
  const mapped = department
    ? team.provisioningDepartmentBudgets?.find((d) => d.department.toLowerCase() === department.toLowerCase())
    : undefined;
  return mapped?.budgetCents ?? team.provisioningBudgetCents ?? DEFAULT_BUDGET_DOLLARS * 100;
}

function tokenView({ tokenId, name, hint, createdAt, lastUsedAt, revokedAt }: ProvisioningTokenRecord) {
  return { tokenId, name, hint, createdAt, lastUsedAt, revokedAt };
}

export async function getProvisioning(actor: Actor) {
  const [team, tokens] = await Promise.all([getTeam(actor.teamId), listProvisioningTokens(actor.teamId)]);
  if (!team) throw new AppError('NOT_FOUND', 'Your team could not be found.');
  const settings = team as TeamRecord & ProvisioningSettings;
  return {
    baseUrl: scimBaseUrl(),
    defaultBudgetCents: provisioningBudget(settings, undefined),
    departmentBudgets: settings.provisioningDepartmentBudgets ?? [],
    // Newest first (ULIDs), live ones before revoked ones.
    tokens: tokens
      .sort(
        (a, b) =>
          Number(Boolean(a.revokedAt)) - Number(Boolean(b.revokedAt)) || b.tokenId.localeCompare(a.tokenId),
      )
      .map(tokenView),
  };
}

/** 32 random bytes (256 bits), base64url, after the recognisable prefix. */
function newToken(): string {
  return `${PROVISIONING_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export async function createProvisioningToken(actor: Actor, name: string, now: Date) {
  const live = (await listProvisioningTokens(actor.teamId)).filter((t) => !t.revokedAt);
  if (live.length >= MAX_PROVISIONING_TOKENS) {
    throw new AppError(
      'RULE_VIOLATED',
      `A team can have ${MAX_PROVISIONING_TOKENS} provisioning tokens at most. Revoke one you no longer use first.`,
    );
  }
  const token = newToken();
  const record: ProvisioningTokenRecord = {
    teamId: actor.teamId,
    tokenId: newId(now),
    name,
    hint: token.slice(0, PROVISIONING_TOKEN_PREFIX.length + 4),
    tokenHash: provisioningTokenHash(token),
    createdAt: now.toISOString(),
    createdBy: actor.userId,
  };
  const audit = auditTransactItem(
    {
      teamId: actor.teamId,
      actorId: actor.userId,
      action: 'provisioning.tokenCreated',
      after: { tokenId: record.tokenId, name },
      at: record.createdAt,
    },
    `provisioning.tokenCreated#${record.tokenId}`,
  );
  await putProvisioningToken(record, audit);
  return { token, tokenId: record.tokenId, name };
}

export async function revokeToken(actor: Actor, tokenId: string, now: Date) {
  const record = await getProvisioningToken(actor.teamId, tokenId);
  if (!record) throw new AppError('NOT_FOUND', 'No such provisioning token.');
  if (!record.revokedAt) {
    const at = now.toISOString();
    await revokeProvisioningToken(
      record,
      at,
      auditTransactItem(
        {
          teamId: actor.teamId,
          actorId: actor.userId,
          action: 'provisioning.tokenRevoked',
          after: { tokenId, name: record.name },
          at,
        },
        `provisioning.tokenRevoked#${tokenId}`,
      ),
    );
  }
  return getProvisioning(actor);
}

export async function updateProvisioningSettings(
  actor: Actor,
  input: z.output<typeof provisioningSettingsInput>,
  now: Date,
) {
  const team = (await getTeam(actor.teamId)) as (TeamRecord & ProvisioningSettings) | undefined;
  if (!team) throw new AppError('NOT_FOUND', 'Your team could not be found.');
  const departmentBudgets = input.departmentBudgets.map((d) => ({
    department: d.department,
    budgetCents: d.budget,
  }));
  await setTeamFields(actor.teamId, {
    provisioningBudgetCents: input.defaultBudget,
    provisioningDepartmentBudgets: departmentBudgets,
  });
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action: 'provisioning.settingsChanged',
    before: {
      budgetCents: provisioningBudget(team, undefined),
      departmentBudgets: team.provisioningDepartmentBudgets ?? [],
    },
    after: { budgetCents: input.defaultBudget, departmentBudgets },
    at: now.toISOString(),
  });
  return getProvisioning(actor);
}
