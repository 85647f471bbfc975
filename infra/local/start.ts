/**
 * `npm start`: the whole product on this machine, no AWS account needed.
 * Ctrl-C stops everything; data persists in .local-data/ for the next start.
 */
import { LAMBDA_NODE_MAJOR } from '../lib/nodeRuntime';
import { MissingJavaError } from './dynamodb';
import { PortInUseError } from './processes';
import { DEMO_EMPLOYEE, DEMO_MANAGER, DEMO_TEAM } from './seed';
import { portsFromEnv } from './settings';
import { startLocalStack } from './stack';

const startedAt = performance.now();
// `npm start` runs on the Lambda's Node (node_modules/.bin/node, first on npm's PATH); say so
// when something else started this, as behaviour may differ from what runs in AWS.
if (Number(process.versions.node.split('.')[0]) !== LAMBDA_NODE_MAJOR) {
  console.warn(
    `Running on Node ${process.versions.node}, but the functions run on Node ${LAMBDA_NODE_MAJOR} in AWS: start with \`npm start\` (after \`npm ci\`) to use the project's Node.`,
  );
}

async function main() {
  const dataDir = process.env.LOCAL_DATA_DIR ?? '.local-data';
  const stack = await startLocalStack({
    ports: portsFromEnv(),
    dataDir,
    dev: process.argv.includes('--dev'),
  });
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const lines = [
    '',
    `  Learning Budget is running locally (ready in ${seconds}s)`,
    '',
    `  App:      ${stack.webUrl}`,
    `  API:      ${stack.appApiUrl}   (the app's own origin, as in AWS; the gateway itself: ${stack.apiUrl})`,
    `  Mailbox:  ${stack.mailboxUrl}   (every e-mail the product sends)`,
    `  Checkout: ${stack.stripeUrl}/checkout   (a sandbox merchant: pay with an employee's card)`,
    `  Time:     ${stack.appApiUrl}/_local/time   (move the product's date forward; or npm run time -- +3d)`,
    '',
    `  Demo manager:   ${DEMO_MANAGER.email} / ${DEMO_MANAGER.password}`,
    `  Demo employee:  ${DEMO_EMPLOYEE.email} / ${DEMO_EMPLOYEE.password}`,
    `  Demo team:      ${DEMO_TEAM.filter((p) => p.state !== 'invited' && p.state !== 'deleted')
      .map((p) => p.email)
      .join(', ')} (same password)`,
    '',
    `  Press Ctrl-C to stop. Data is kept in ${dataDir}/ (delete it to start fresh).`,
    '',
  ];
  console.log(lines.join('\n'));

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error) => {
  if (error instanceof MissingJavaError || error instanceof PortInUseError) {
    console.error(error.message);
  } else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  }
  process.exit(1);
});
