#!/usr/bin/env node
/**
 * CDK entry point (cdk.json: `npx tsx infra/bin/app.ts`). Settings come from
 * context: `cdk deploy -c stage=prod -c webOrigin=https://app.example.com ...`;
 * docs/deploy.md lists them.
 */
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';
import { PLACEHOLDER_WEB_ORIGIN } from '../lib/config';

const app = new App();
const { config } = buildApp({
  app,
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION ?? 'us-east-1',
});

const placeholders = [
  config.webOrigin === PLACEHOLDER_WEB_ORIGIN && 'webOrigin',
  config.mailFrom.endsWith('@example.com') && 'mailFrom',
  config.supportInbox.endsWith('@example.com') && 'supportInbox',
].filter(Boolean);
if (placeholders.length > 0) {
  console.warn(`[config] placeholder values in use for: ${placeholders.join(', ')} (see docs/deploy.md)`);
}
