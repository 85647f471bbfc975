/**
 * The card-authorization function's bundle, built as CDK builds it: without
 * the two libraries that made it 251 KB gzip (docs/decisions.md "The
 * authorization bundle"). What it contains, not how big it is: its size and
 * import time are measured by `npm run bench -- --bundle`, not asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handlerFile } from '@shared/api/routes';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptionsFor } from '../../infra/lib/lambdaBundling';

/** Source files with code in the bundle (esbuild also lists what it read and shook out). */
function inBundle(metafile: Metafile): string[] {
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([path]) => path),
  );
}

describe('the authorization bundle (stripeWebhook)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'authorization-bundle-'));
  let inputs: string[];

  beforeAll(async () => {
    const outfile = join(dir, 'index.mjs');
    const result = await build({
      ...esbuildOptionsFor(handlerFile('stripeWebhook'), outfile),
      metafile: true,
      logLevel: 'error',
    });
    inputs = inBundle(result.metafile as Metafile);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('does not carry the Stripe SDK (the signature is checked with node:crypto)', () => {
    expect(inputs.filter((path) => path.includes('node_modules/stripe/'))).toEqual([]);
  });

  it("does not carry zod's full build (config reads the environment with zod/mini)", () => {
    expect(inputs.filter((path) => /node_modules\/zod\/(v4\/classic|v4\/locales|v3)\//.test(path))).toEqual(
      [],
    );
    expect(inputs.some((path) => path.includes('node_modules/zod/v4/mini/'))).toBe(true);
  });

  it('still bundles the AWS SDK it was tested with', () => {
    expect(inputs.some((path) => path.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
  });
});
