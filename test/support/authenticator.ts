/** The authenticator app's part in tests: the codes it shows, and enrolling one over the API. */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import * as OTPAuth from 'otpauth';
import { db, queryAll, tableName } from '../../lambdas/src/data/client';
import { keys } from '../../lambdas/src/data/keys';
import { api, PASSWORD, type SignedIn } from './accountFlows';

/** The code the app would show `stepsAhead` periods from now (each 30 s step's code works once). */
export function codeFor(secret: string, stepsAhead = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** Enrols an authenticator app for `user` (start with the password, confirm with a right code); its secret and recovery codes. */
export async function enrolAuthenticator(
  apiUrl: string,
  user: SignedIn,
  password = PASSWORD,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await api(apiUrl, 'POST', '/me/secondFactor/totp', {
    token: user.accessToken,
    body: { password },
  });
  if (started.status !== 200) throw new Error(`enrolment did not start: ${JSON.stringify(started.body)}`);
  const confirmed = await api(apiUrl, 'POST', '/me/secondFactor/totp/confirm', {
    token: user.accessToken,
    body: { code: codeFor(started.body.secret) },
  });
  if (confirmed.status !== 200)
    throw new Error(`enrolment did not confirm: ${JSON.stringify(confirmed.body)}`);
  return { secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

/** Forgets every factor `userId` proved (sign-in or step-up): as if the last one were long ago. */
export async function forgetStepUps(userId: string): Promise<void> {
  const items = await queryAll<{ pk: string; sk: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.user(userId).pk, ':prefix': 'STEPUP#' },
  });
  for (const { pk, sk } of items) {
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk, sk } }));
  }
}
