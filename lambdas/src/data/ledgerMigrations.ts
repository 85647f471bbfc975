/**
 * Issue 12: the card network and fee revenue were one shared account each
 * (`network:settlement`, `revenue:fees`), written by every team's captures,
 * refunds and redemptions. They are per team now (`network:<teamId>`,
 * `revenue:<teamId>`). This moves what each team's old postings left on the
 * shared accounts to the team's own, as one correcting posting per team and
 * account: old entries stay as they were (entries are never edited) and stay
 * readable in the team's journal; afterwards each shared account holds 0.
 *
 * Idempotent and safe to run again or twice at once: a team's part is the sum
 * of its lines on the shared account, the earlier moves included, and the move
 * is keyed by the last of those lines, so a second run finds nothing to move
 * or posts the same id (a duplicate). A line written by an old Lambda after a
 * run is moved by the next one.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import {
  type AccountId,
  accountSplit,
  LEGACY_NETWORK_ACCOUNT,
  LEGACY_REVENUE_ACCOUNT,
  networkAccount,
  revenueAccount,
} from '@shared/domain/ledger';
import { db, tableName } from './client';
import { keys } from './keys';
import { post, statement } from './ledger';

const SPLITS: { from: AccountId; to: (teamId: string) => AccountId }[] = [
  { from: LEGACY_NETWORK_ACCOUNT, to: networkAccount },
  { from: LEGACY_REVENUE_ACCOUNT, to: revenueAccount },
];

/** The team of each journal entry, 100 keys a call (BatchGet's limit), unprocessed keys asked again. */
async function teamsOfEntries(entryIds: string[]): Promise<Map<string, string>> {
  const teams = new Map<string, string>();
  for (let i = 0; i < entryIds.length; i += 100) {
    let wanted: Record<string, unknown>[] = entryIds.slice(i, i + 100).map((id) => keys.journal(id));
    while (wanted.length > 0) {
      const result = await db().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: { Keys: wanted, ProjectionExpression: 'entryId, teamId', ConsistentRead: true },
          },
        }),
      );
      for (const item of result.Responses?.[tableName()] ?? []) teams.set(item.entryId, item.teamId);
      wanted = (result.UnprocessedKeys?.[tableName()]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return teams;
}

export interface SplitResult {
  /** Correcting postings made by this run (0 when there was nothing left to move). */
  posted: number;
  /** Teams with lines on a shared account. */
  teams: number;
}

export async function splitSharedAccounts(): Promise<SplitResult> {
  let posted = 0;
  const allTeams = new Set<string>();
  for (const split of SPLITS) {
    const lines = await statement(split.from);
    if (lines.length === 0) continue;
    const teamOf = await teamsOfEntries([...new Set(lines.map((l) => l.entryId))]);
    const byTeam = new Map<string, { cents: number; lastEntryId: string }>();
    for (const line of lines) {
      const teamId = teamOf.get(line.entryId);
      if (!teamId) throw new Error(`${split.from}: entry ${line.entryId} has no journal`);
      const part = byTeam.get(teamId) ?? { cents: 0, lastEntryId: line.entryId };
      part.cents += line.amountCents;
      if (line.kind !== 'accountSplit') part.lastEntryId = line.entryId;
      byTeam.set(teamId, part);
    }
    for (const [teamId, part] of byTeam) {
      allTeams.add(teamId);
      if (part.cents === 0) continue;
      const result = await post(
        accountSplit({
          entryId: `SPLIT#${split.from}#${teamId}#${part.lastEntryId}`,
          teamId,
          from: split.from,
          to: split.to(teamId),
          amountCents: part.cents,
        }),
      );
      if (result.status === 'posted') posted++;
    }
  }
  return { posted, teams: allTeams.size };
}
