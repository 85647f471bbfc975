/**
 * Adds the insights aggregates (issue 26, docs/insights.md "Backfill") of the
 * ledger entries posted before they were kept:
 *
 *   TABLE_NAME=<table> AWS_REGION=us-east-1 npm run insights:backfill
 *
 * Run once after the code that writes the aggregates is deployed, and again if
 * a Lambda of the old code was still posting meanwhile; each entry is added
 * once however often it runs. The local stack runs the same step on every
 * start (infra/local/seed.ts).
 */
import { backfillInsights } from '../lambdas/src/data/insightBackfill';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

backfillInsights()
  .then(({ added, listed, copied, teams }) => {
    console.log(
      `${added} ledger entries' insights aggregates added, ${listed} people listed by their dormancy clock, ${copied} person-months copied to the people shards; ${teams} teams read`,
    );
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
