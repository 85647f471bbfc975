import { defineConfig } from 'vitest/config';

/**
 * Four layers, each its own project (see docs/testing.md):
 *  unit        pure rules, no I/O
 *  infra       CDK assertions and cdk-nag
 *  integration real handlers through the local gateway on DynamoDB Local and the SES stand-in
 *  e2e         headless Chromium through the whole local stack
 */
// Lambda runs Node 22+; this machine's Node 20 is fine for tests, so the SDK's notice is noise.
const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node', env } },
      {
        test: {
          name: 'infra',
          env,
          include: ['test/infra/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          env,
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/integrationGlobalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          env,
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/e2eGlobalSetup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
