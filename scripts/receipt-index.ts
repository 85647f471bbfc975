/**
 * Lists the purchases still awaiting a receipt in the sparse gsi3 index, which
 * the receipt job reads (docs/data-model.md pattern 38; docs/deploy.md):
 *
 *   TABLE_NAME=<table> AWS_REGION=us-east-1 npm run receipts:index
 *
 * Run once after the code that writes gsi3 is deployed (the table's gsi3 is
 * ACTIVE by then: CloudFormation waits for it), and again if a Lambda of the
 * old code was still writing meanwhile; a run with nothing left to do changes
 * nothing. The local stack runs the same step on every start (infra/local/seed.ts).
 */
import { indexAwaitingReceipts } from '../lambdas/src/data/receiptIndexMigration';

// Lambda runs Node 22+; this command may run on Node 20, where the SDK's upgrade notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

indexAwaitingReceipts()
  .then(({ indexed, unlisted, teams }) => {
    console.log(
      `${indexed} purchases awaiting a receipt listed, ${unlisted} received ones taken out; ${teams} teams read`,
    );
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
