/**
 * `npm run bench -- --scim`: 1,000 people created through SCIM (issue 28), 10
 * at a time as Okta sends them, through the real handler in-process (as Lambda
 * runs it) against DynamoDB Local and the SES stand-in: each create claims
 * the person, counts the budget against the daily limit, stores the invitation
 * and e-mails it. Prints the time for the 1,000 and checks none was lost or doubled.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { prefixedLog } from '../infra/local/processes';
import { startSes } from '../infra/local/ses';
import { freePort } from '../test/support/ports';
import { type BenchTable, runConcurrent, type Throughput } from './benchTable';

export interface ScimBench {
  creates: Throughput;
  invitations: number;
  emails: number;
}

const PEOPLE = 1_000;
const CONCURRENCY = 10;

export async function benchScim(table: BenchTable): Promise<ScimBench> {
  const ses = await startSes({ port: await freePort(), log: prefixedLog('ses', true) });
  Object.assign(process.env, {
    SES_ENDPOINT: ses.endpoint,
    MAIL_FROM: 'bench@learningbudget.test',
    SUPPORT_INBOX: 'support@learningbudget.test',
    WEB_ORIGIN: 'http://127.0.0.1:5173',
  });
  try {
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { keys } = await import('../lambdas/src/data/keys');
    const { putProvisioningToken } = await import('../lambdas/src/data/provisioning');
    const { auditTransactItem } = await import('../lambdas/src/data/audit');
    const { listTeamInvitations } = await import('../lambdas/src/data/accounts');
    const { provisioningTokenHash } = await import('../lambdas/src/platform/auth');
    const { handler } = await import('../lambdas/src/http/scimCreateUser');

    const teamId = 'bench-scim-team';
    const managerId = 'bench-scim-manager';
    const now = new Date().toISOString();
    await table.doc.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...keys.team(teamId),
          teamId,
          name: 'Bench Co',
          managerId,
          createdAt: now,
          status: 'active',
          // 1,000 x $25 in a day: raised by operations, as for a big onboarding.
          dailyDepositLimitCents: PEOPLE * 2_500,
        },
      }),
    );
    await table.doc.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...keys.user(managerId),
          ...keys.userByTeam(teamId, managerId),
          userId: managerId,
          teamId,
          role: 'manager',
          status: 'active',
          email: 'manager@bench.test',
          firstName: 'Bench',
          lastName: 'Manager',
        },
      }),
    );
    const token = `lbscim_${'b'.repeat(43)}`;
    await putProvisioningToken(
      {
        teamId,
        tokenId: '01BENCHSCIMTOKEN0000000000',
        name: 'Okta',
        hint: token.slice(0, 11),
        tokenHash: provisioningTokenHash(token),
        createdAt: now,
        createdBy: managerId,
      },
      auditTransactItem(
        { teamId, actorId: managerId, action: 'provisioning.tokenCreated', at: now },
        'bench-token',
      ),
    );

    const creates = await runConcurrent(PEOPLE, CONCURRENCY, async (i) => {
      const email = `bench-${i}@example.com`;
      const event = {
        version: '2.0',
        routeKey: 'POST /scim/v2/Users',
        rawPath: '/scim/v2/Users',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: email,
          name: { givenName: 'Bench', familyName: `Person ${i}` },
          emails: [{ primary: true, value: email, type: 'work' }],
          externalId: `00u${i}`,
          active: true,
        }),
        isBase64Encoded: false,
        requestContext: { requestId: `bench-${i}`, http: { method: 'POST', sourceIp: '127.0.0.1' } },
      } as unknown as APIGatewayProxyEventV2;
      const answer = await handler(event);
      const status = typeof answer === 'string' ? 200 : answer.statusCode;
      if (status !== 201) throw new Error(`create ${i} answered ${status}: ${JSON.stringify(answer)}`);
    });
    const invitations = (await listTeamInvitations(teamId)).length;
    const store = (await (await fetch(`${ses.endpoint}/store`)).json()) as { emails: unknown[] };
    return { creates, invitations, emails: store.emails.length };
  } finally {
    await ses.stop();
  }
}

export function printScim(result: ScimBench) {
  const { creates } = result;
  console.log(
    `\nSCIM: ${PEOPLE.toLocaleString('en-US')} people created, ${CONCURRENCY} at a time (handler in-process, DynamoDB Local, SES stand-in)`,
  );
  console.log(
    `  ${creates.seconds.toFixed(1)} s for ${PEOPLE.toLocaleString('en-US')} creates: ${creates.perSecond.toFixed(0)}/s, p50 ${creates.p50.toFixed(0)} ms, p99 ${creates.p99.toFixed(0)} ms`,
  );
  console.log(`  ${result.invitations} invitations stored, ${result.emails} invitation e-mails sent`);
}
