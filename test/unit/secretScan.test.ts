/**
 * The secret scan CI runs (`npm run secrets`, secretlint with .secretlintrc.json)
 * flags real-looking keys and lets the Stripe emulator's obviously fake keys
 * (lower-case words such as `sk_test_local_emulator`) through.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOCAL_STRIPE_PUBLISHABLE_KEY,
  LOCAL_STRIPE_SECRET_KEY,
  LOCAL_STRIPE_WEBHOOK_SECRET,
} from '../../infra/local/settings';

function scan(text: string): { status: number | null; output: string } {
  const run = spawnSync(resolve('node_modules/.bin/secretlint'), ['--stdinFileName=sample.ts'], {
    input: text,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

// Assembled at run time so this file itself holds no key-shaped string for the scan to find.
const realLooking = ['sk', 'live', '51H8c2bKx9q2LmN3oP4qR5sT6uV7wX8yZ9aB0cD1eF2gH3iJ4kL5'].join('_');

describe('the secret scan', () => {
  it('fails on a real-looking Stripe secret key', () => {
    const result = scan(`export const key = '${realLooking}';\n`);
    expect(result.status).toBe(1);
    expect(result.output).toContain('STRIPE_SECRET_KEY_LIVE');
  });

  it("passes the emulator's fake keys", () => {
    // The last one is long enough for the Stripe rule's pattern: only the allow list lets it pass.
    const wordsOnly = ['sk', 'test', 'emulator'.repeat(4)].join('_');
    const fakes = [
      LOCAL_STRIPE_SECRET_KEY,
      LOCAL_STRIPE_PUBLISHABLE_KEY,
      LOCAL_STRIPE_WEBHOOK_SECRET,
      wordsOnly,
    ];
    const result = scan(fakes.map((key, i) => `export const k${i} = '${key}';`).join('\n'));
    expect(result).toEqual({ status: 0, output: '' });
  });
});
