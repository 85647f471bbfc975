import { defineConfig } from 'vitest/config';
import { sharedAlias } from './web/vite.config';

/**
 * Four layers, each its own project (see docs/testing.md):
 *  unit        pure rules, no I/O
 *  infra       CDK assertions and cdk-nag
 *  integration real handlers through the local gateway on DynamoDB Local and the SES stand-in
 *  e2e         headless Chromium through the whole local stack
 */
// Node is the Lambda's major (infra/lib/nodeRuntime.ts): `npx vitest` and `npm test` put
// node_modules/.bin/node (package.json's node-<os>-<cpu>) first on PATH.

export default defineConfig({
  resolve: { alias: sharedAlias },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // CPU-bound synths: one per core.
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/integrationGlobalSetup.ts'],
          setupFiles: ['test/support/handlerUse.ts'],
          // Three files at once on two cores: each waits on DynamoDB Local, cognito-local and HTTP
          // much of the time (1.6x faster than one at a time on an idle machine). Files never share
          // data: each makes its own table, gateway and Stripe emulator.
          maxWorkers: 3,
          // Hang guards, not speed checks: three files share two cores, and CI may share them too.
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/e2eGlobalSetup.ts'],
          fileParallelism: false,
          // A hang guard, not a speed check: every step waits for the state it needs, and the
          // longest test (four widths of the Employees screen) took 53 s on an idle machine,
          // past 60 s while CI shared the machine.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
