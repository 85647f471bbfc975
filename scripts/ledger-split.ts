/**
 * Moves what the retired shared ledger accounts (`network:settlement`,
 * `revenue:fees`) hold to each team's own accounts (issue 12; docs/ledger.md):
 *
 *   TABLE_NAME=<table> AWS_REGION=us-east-1 npm run ledger:split
 *
 * Run once after the per-team code is deployed, and again if a Lambda of the
 * old code was still writing meanwhile; a run with nothing left to move changes
 * nothing. The local stack runs the same step on every start (infra/local/seed.ts).
 */
import { splitSharedAccounts } from '../lambdas/src/data/ledgerMigrations';

// Lambda runs Node 22+; this command may run on Node 20, where the SDK's upgrade notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

splitSharedAccounts()
  .then(({ posted, teams }) => {
    console.log(`${posted} moves posted; ${teams} teams had lines on the shared accounts`);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
