/**
 * The environment reader (lambdas/src/platform/config.ts): values come through
 * typed, defaults fill in, and a bad or missing variable fails with its name
 * and what is wrong, never its value (some are secrets).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const NAMES = [
  'AWS_REGION',
  'TABLE_NAME',
  'DYNAMODB_ENDPOINT',
  'MAIL_FROM',
  'SUPPORT_INBOX',
  'OPERATIONS_INBOX',
  'SES_ENDPOINT',
  'EDGE_ORIGIN_SECRET',
  'STAGE',
];
let saved: Record<string, string | undefined>;

beforeEach(() => {
  saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
  for (const n of NAMES) delete process.env[n];
  // Each group parses once per module instance: a fresh one per test.
  vi.resetModules();
});
afterEach(() => {
  for (const [n, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[n];
    else process.env[n] = v;
  }
});

const config = () => import('../../lambdas/src/platform/config');

describe('config', () => {
  it('reads the variables, typed, with defaults for the unset ones', async () => {
    process.env.TABLE_NAME = 'learning-budget';
    process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:8000';
    const { tableConfig, awsConfig, stageConfig } = await config();
    expect(tableConfig()).toEqual({
      TABLE_NAME: 'learning-budget',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
    });
    expect(awsConfig()).toEqual({ AWS_REGION: 'us-east-1' });
    expect(stageConfig()).toEqual({ STAGE: 'aws' });
  });

  it('names a missing variable', async () => {
    const { tableConfig } = await config();
    expect(() => tableConfig()).toThrow('Configuration (table) is invalid: TABLE_NAME: missing');
  });

  it('names every malformed variable of a group and what is wrong, without its value', async () => {
    process.env.MAIL_FROM = 'no';
    process.env.SUPPORT_INBOX = 'support-at-example';
    process.env.SES_ENDPOINT = 'not a url';
    const { mailConfig } = await config();
    let message = '';
    try {
      mailConfig();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'Configuration (mail) is invalid: MAIL_FROM: shorter than 3 characters; ' +
        'SUPPORT_INBOX: not a valid email; SES_ENDPOINT: not a valid url',
    );
  });

  it('keeps a short secret out of the message', async () => {
    process.env.EDGE_ORIGIN_SECRET = 'too-short';
    const { edgeConfig } = await config();
    expect(() => edgeConfig()).toThrow('EDGE_ORIGIN_SECRET: shorter than 16 characters');
    expect(() => edgeConfig()).not.toThrow('too-short');
  });

  it('reads e-mail addresses', async () => {
    process.env.MAIL_FROM = 'Learning Budget <no-reply@example.com>';
    process.env.SUPPORT_INBOX = 'support@example.com';
    const { mailConfig } = await config();
    expect(mailConfig()).toEqual({
      MAIL_FROM: 'Learning Budget <no-reply@example.com>',
      SUPPORT_INBOX: 'support@example.com',
    });
  });
});
