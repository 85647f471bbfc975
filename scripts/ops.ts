/**
 * Operations commands, run by the operator (never reachable from the API):
 *
 *   npm run ops -- show-limits --team TEAM_ID
 *   npm run ops -- set-limits --team TEAM_ID [--deposit-daily DOLLARS] [--redemption-daily DOLLARS]
 *   npm run ops -- set-limits --team TEAM_ID --default    # back to the defaults
 *
 * The table comes from TABLE_NAME, AWS_REGION and credentials in the
 * environment; `--local` uses the running local stack (`npm start`). A team's
 * daily limits on extra deposits and redemptions are fields of its team item
 * (shared/src/domain/moneyLimits.ts); a manager cannot change them. Exit code
 * 0 on success, 2 on wrong usage or a failure to reach the table.
 */

import { formatCents } from '@shared/domain/money';
import { dailyLimitCents, defaultLimits, limitFields, type MoneyLimitKind } from '@shared/domain/moneyLimits';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `Usage:
  npm run ops -- show-limits --team TEAM_ID [--local]
  npm run ops -- set-limits --team TEAM_ID [--deposit-daily DOLLARS] [--redemption-daily DOLLARS] [--default] [--local]`;

function usage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** `--name value` pairs and bare flags. */
function parseArgs(args: string[]) {
  const [command, ...rest] = args;
  const options = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (!arg.startsWith('--')) usage(`Unexpected ${arg}`);
    if (arg === '--local' || arg === '--default') flags.add(arg);
    else {
      const value = rest[i + 1];
      if (value === undefined || value.startsWith('--')) usage(`${arg} needs a value`);
      options.set(arg, value);
      i++;
    }
  }
  return { command, options, flags };
}

/** Whole dollars, 0 to 10,000,000, as cents. */
function dollarsToCents(name: string, text: string): number {
  if (!/^\d{1,8}$/.test(text) || Number(text) > 10_000_000)
    usage(`${name} must be whole dollars from 0 to 10000000, got ${text}`);
  return Number(text) * 100;
}

function describe(team: Record<string, unknown>): string {
  return (['deposit', 'redemption'] as MoneyLimitKind[])
    .map((kind) => {
      const own = typeof team[limitFields[kind]] === 'number';
      return `  daily ${kind} limit: ${formatCents(dailyLimitCents(kind, team))}${own ? '' : ' (default)'}`;
    })
    .join('\n');
}

async function main() {
  const { command, options, flags } = parseArgs(process.argv.slice(2));
  if (command !== 'show-limits' && command !== 'set-limits') usage(`Unknown command ${command ?? ''}`);
  const known = command === 'set-limits' ? ['--team', '--deposit-daily', '--redemption-daily'] : ['--team'];
  for (const name of options.keys()) if (!known.includes(name)) usage(`Unknown option ${name}`);
  const teamId = options.get('--team') ?? usage('--team is required');

  const changes: Record<string, number> = {};
  const deposit = options.get('--deposit-daily');
  const redemption = options.get('--redemption-daily');
  if (deposit !== undefined) changes[limitFields.deposit] = dollarsToCents('--deposit-daily', deposit);
  if (redemption !== undefined)
    changes[limitFields.redemption] = dollarsToCents('--redemption-daily', redemption);
  if (command === 'set-limits' && flags.has('--default') && Object.keys(changes).length > 0)
    usage('--default cannot be combined with a limit');
  if (command === 'set-limits' && !flags.has('--default') && Object.keys(changes).length === 0)
    usage('Give --deposit-daily, --redemption-daily or --default');

  if (flags.has('--local')) {
    const { LOCAL_TABLE_NAME, portsFromEnv } = await import('../infra/local/settings');
    Object.assign(process.env, {
      TABLE_NAME: LOCAL_TABLE_NAME,
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${portsFromEnv().dynamodb}`,
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
  }
  const { getTeam } = await import('../lambdas/src/data/accounts');
  const { updateFields } = await import('../lambdas/src/data/client');
  const { keys } = await import('../lambdas/src/data/keys');
  try {
    if (command === 'set-limits') {
      if (!(await getTeam(teamId))) usage(`No team ${teamId}`);
      await updateFields(keys.team(teamId), changes, {
        remove: flags.has('--default') ? Object.values(limitFields) : [],
      });
    }
    const team = await getTeam(teamId);
    if (!team) usage(`No team ${teamId}`);
    console.log(`Team ${teamId}:\n${describe(team as unknown as Record<string, unknown>)}`);
    console.log(
      `Defaults: deposits ${formatCents(defaultLimits.deposit)}, redemptions ${formatCents(defaultLimits.redemption)} a day.`,
    );
  } catch (error) {
    console.error(`Could not reach the table: ${(error as Error).message}`);
    process.exit(2);
  }
}

await main();
