/**
 * What every manager operation on employees shares: the people named must be
 * employees of the manager's own team (anyone else's is `notFound`, so a
 * request cannot even learn they exist), and each action is audited.
 */
import type { AuditAction } from '@shared/domain/auditLog';
import { AppError } from '@shared/errors';
import { type AuditEvent, recordAudit } from '../../data/audit';
import { getUser, type UserRecord } from '../../data/users';
import type { Actor } from '../../platform/auth';

export async function teamEmployee(actor: Actor, userId: string): Promise<UserRecord | undefined> {
  const user = await getUser(userId);
  return user && user.teamId === actor.teamId && user.role === 'employee' ? user : undefined;
}

/**
 * All the named employees of the actor's team, or 404 for the whole request:
 * a bulk action naming anyone else's people does nothing at all.
 */
export async function teamEmployees(actor: Actor, userIds: string[]): Promise<UserRecord[]> {
  const users = await Promise.all([...new Set(userIds)].map((id) => teamEmployee(actor, id)));
  if (users.some((u) => !u)) throw new AppError('NOT_FOUND', 'No such person on your team.');
  return users as UserRecord[];
}

export async function audit(
  actor: Actor,
  action: AuditAction,
  now: Date,
  fields: Pick<AuditEvent, 'targetId' | 'before' | 'after'>,
) {
  await recordAudit({
    teamId: actor.teamId,
    actorId: actor.userId,
    action,
    at: now.toISOString(),
    ...fields,
  });
}
