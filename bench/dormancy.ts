/**
 * `npm run bench:dormancy` (`-- --quick`: 1,000 only): the daily dormancy job
 * over 1,000 and 10,000 employees in 200 teams on DynamoDB Local, with the SES
 * stand-in receiving the e-mails. Two figures per size: a day when every
 * employee's 11-month warning falls due (the worst day: one read, one
 * conditional write, one e-mail and one relisting each), and an ordinary day
 * when nobody is due (the job reads the day's empty partitions only). Measured,
 * not asserted; the access pattern (docs/data-model.md #31) should make the
 * first grow linearly with the people due and the second stay flat.
 */

import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynamoDb } from '../infra/local/dynamodb';
import { prefixedLog } from '../infra/local/processes';
import { startSes } from '../infra/local/ses';
import { addMonths } from '../shared/src/domain/dormancy';
import { freePort } from '../test/support/ports';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const TEAMS = 200;

async function main() {
  const quick = process.argv.includes('--quick');
  const dynamo = await startDynamoDb({ port: await freePort(), log: prefixedLog('dynamodb', true) });
  const ses = await startSes({ port: await freePort(), log: prefixedLog('mail', true) });
  const raw = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const doc = DynamoDBDocumentClient.from(raw);
  Object.assign(process.env, {
    STAGE: 'local',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SES_ENDPOINT: ses.endpoint,
    MAIL_FROM: 'Learning Budget <no-reply@learningbudget.test>',
    SUPPORT_INBOX: 'support@learningbudget.test',
    WEB_ORIGIN: 'http://127.0.0.1:3000',
    LOG_LEVEL: 'error',
  });
  const { keys } = await import('../lambdas/src/data/keys');
  const { createTableInput } = await import('../lambdas/src/data/tableSpec');
  const { runDormancy } = await import('../lambdas/src/services/dormancy');
  const { createLogger } = await import('../lambdas/src/platform/log');
  const log = createLogger({ bench: 'dormancy' });

  // The first round warms DynamoDB Local, the SES stand-in and the JIT up; it is not reported.
  const WARM_UP = 300;
  const sizes = quick ? [WARM_UP, 1000] : [WARM_UP, 1000, 10000];
  const rows: string[] = [];
  // One table (the handlers read its name once); each size lives two years after the last, apart.
  const table = 'bench-dormancy';
  process.env.TABLE_NAME = table;
  await raw.send(new CreateTableCommand(createTableInput(table)));
  try {
    for (const [round, size] of sizes.entries()) {
      const now = new Date(Date.now() + round * 730 * 24 * 60 * 60 * 1000);
      now.setUTCHours(15, 0, 0, 0);
      const today = now.toISOString().slice(0, 10);
      // Quiet since 11 months ago this morning: every warning falls due today.
      const quietSince = new Date(now.getTime() - 6 * 60 * 60 * 1000);
      const since = new Date(
        Date.UTC(quietSince.getUTCFullYear(), quietSince.getUTCMonth() - 11, quietSince.getUTCDate(), 9),
      );
      if (addMonths(since.toISOString(), 11).toISOString().slice(0, 10) !== today)
        throw new Error('bad month arithmetic');
      const items: Record<string, unknown>[] = [];
      for (let t = 0; t < TEAMS; t++) {
        const teamId = `R${round}T${t}`;
        const managerId = `R${round}M${t}`;
        items.push({
          ...keys.team(teamId),
          entity: 'Team',
          teamId,
          managerId,
          name: `Team ${t}`,
          status: 'active',
        });
        items.push({
          ...keys.user(managerId),
          ...keys.userByTeam(teamId, managerId),
          entity: 'User',
          userId: managerId,
          teamId,
          role: 'manager',
          status: 'active',
          email: `manager${t}@bench.test`,
          firstName: 'Manager',
          lastName: String(t),
        });
      }
      for (let i = 0; i < size; i++) {
        const userId = `R${round}E${i}`;
        const teamId = `R${round}T${i % TEAMS}`;
        items.push({
          ...keys.user(userId),
          ...keys.userByTeam(teamId, userId),
          ...keys.userByDormancyDay(today, userId),
          entity: 'User',
          userId,
          teamId,
          role: 'employee',
          status: 'active',
          email: `employee${i}@bench.test`,
          firstName: 'Employee',
          lastName: String(i),
          quietSince: since.toISOString(),
          dormancy: {},
        });
      }
      for (let i = 0; i < items.length; i += 25) {
        let request = { [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
        while (Object.keys(request).length > 0) {
          const result = await doc.send(new BatchWriteCommand({ RequestItems: request }));
          request = (result.UnprocessedItems ?? {}) as typeof request;
        }
      }
      let started = performance.now();
      const due = await runDormancy(now, log);
      const dueSeconds = (performance.now() - started) / 1000;
      if (due.warnings !== size) throw new Error(`expected ${size} warnings, got ${JSON.stringify(due)}`);
      started = performance.now();
      await runDormancy(new Date(now.getTime() + 24 * 60 * 60 * 1000), log);
      const quietSeconds = (performance.now() - started) / 1000;
      if (round === 0) continue;
      rows.push(
        `  ${String(size).padStart(6)} employees / ${TEAMS} teams: all due ${dueSeconds.toFixed(1)} s (${Math.round(size / dueSeconds)} people/s), nobody due ${(quietSeconds * 1000).toFixed(0)} ms`,
      );
    }
    console.log('\nDormancy job (DynamoDB Local, SES stand-in):');
    for (const row of rows) console.log(row);
  } finally {
    raw.destroy();
    await ses.stop();
    await dynamo.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
