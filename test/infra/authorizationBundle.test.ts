/**
 * The card-authorization function's bundle, built as CDK builds it: under the
 * 150 KB gzip budget of issue 12, and without the two libraries that made it
 * 251 KB (docs/decisions.md "The authorization bundle"). Size only: its import
 * time is measured by `npm run bench -- --bundle`, not asserted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptionsFor } from '../../infra/lib/lambdaBundling';
import { handlerFile } from '../../shared/src/api/routes';

const BUDGET_GZIP_BYTES = 150 * 1024;

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
  let code: Buffer;
  let inputs: string[];

  beforeAll(async () => {
    const outfile = join(dir, 'index.mjs');
    const result = await build({
      ...esbuildOptionsFor(handlerFile('stripeWebhook'), outfile),
      metafile: true,
      logLevel: 'error',
    });
    code = readFileSync(outfile);
    inputs = inBundle(result.metafile as Metafile);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is at most 150 KB gzip', () => {
    expect(gzipSync(code).length).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

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
