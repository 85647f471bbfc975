/**
 * Replaces the stored catalogue with a JSON Lines file:
 *
 *   npm run catalogue:import -- shared/data/catalogue.jsonl           # AWS: TABLE_NAME, AWS_REGION, credentials from the environment
 *   npm run catalogue:import -- --local shared/data/catalogue.jsonl   # the running local stack (`npm start`)
 *
 * Every line is checked before anything is written; an invalid file is refused
 * with each problem's line and field, and nothing is stored. A valid file makes
 * the table equal to it (added, changed, removed); running it twice changes
 * nothing the second time. Exit code 0 on success, 1 on a refused file, 2 on
 * wrong usage or a failure to reach the table.
 */
import { readFileSync } from 'node:fs';
import { describeLineError } from '@shared/schemas/catalogue';

function usage(message: string): never {
  console.error(`${message}\nUsage: npm run catalogue:import -- [--local] FILE`);
  process.exit(2);
}

async function main() {
  const args = process.argv.slice(2);
  const local = args.includes('--local');
  const files = args.filter((a) => a !== '--local');
  const unknown = files.filter((a) => a.startsWith('--'));
  if (unknown.length) usage(`Unknown option ${unknown.join(', ')}`);
  if (files.length !== 1) usage('Give exactly one file.');
  const file = files[0] as string;

  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    usage(`Cannot read ${file}: ${(error as Error).message}`);
  }

  if (local) {
    // The same table and endpoint `npm start` uses (infra/local/settings.ts).
    const { LOCAL_TABLE_NAME, portsFromEnv } = await import('../infra/local/settings');
    Object.assign(process.env, {
      TABLE_NAME: LOCAL_TABLE_NAME,
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${portsFromEnv().dynamodb}`,
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
  }

  const { importCatalogueText } = await import('../lambdas/src/services/shop/catalogue');
  const target = `${process.env.TABLE_NAME ?? '(TABLE_NAME not set)'}${local ? ' (local)' : ''}`;
  let result: Awaited<ReturnType<typeof importCatalogueText>>;
  try {
    result = await importCatalogueText(text);
  } catch (error) {
    const hint = local ? ' Is the local stack running (npm start)?' : '';
    console.error(`Could not import into ${target}: ${(error as Error).message}.${hint}`);
    process.exit(2);
  }
  if (!result.ok) {
    console.error(`${file} was refused; nothing was stored:`);
    for (const error of result.errors) console.error(`  ${describeLineError(error)}`);
    process.exit(1);
  }
  const { added, updated, removed, unchanged } = result;
  console.log(
    `${file} -> ${target}: ${added} added, ${updated} updated, ${removed} removed, ${unchanged} unchanged`,
  );
}

await main();
