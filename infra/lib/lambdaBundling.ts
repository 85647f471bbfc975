/**
 * How every Lambda is bundled, in one place so `npm run bench -- --bundle`
 * builds exactly what CDK deploys (constructs/appFunction.ts passes these to
 * NodejsFunction; the bench and test/infra/authorizationBundle.test.ts to
 * esbuild). The names are CDK's BundlingOptions.
 */
import type { BuildOptions } from 'esbuild';
import { LAMBDA_ESBUILD_TARGET } from './nodeRuntime';

export const LAMBDA_BUNDLING = {
  target: LAMBDA_ESBUILD_TARGET,
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  // Bundle the SDK too: the runtime's copy lags and varies by region, and the
  // code must run on the exact versions the tests ran (lib-dynamodb, presigner).
  externalModules: [] as string[],
  // ESM builds first: they tree-shake (the AWS SDK's `module` builds are about
  // a fifth smaller bundled than its CommonJS `main`).
  mainFields: ['module', 'main'],
  // Some dependencies still call require(); give ESM output a real one.
  banner: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
};

/** Set on every function: stack traces in the logs point into the TypeScript sources. */
export const LAMBDA_NODE_OPTIONS = '--enable-source-maps';

/**
 * The same bundle as esbuild options, for what builds it outside CDK (the
 * bench, the size test): CDK's NodejsFunction turns LAMBDA_BUNDLING into these
 * very flags (platform node, ESM as index.mjs, linked source map).
 */
export function esbuildOptionsFor(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: LAMBDA_BUNDLING.target,
    minify: LAMBDA_BUNDLING.minify,
    sourcemap: LAMBDA_BUNDLING.sourceMap,
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    external: LAMBDA_BUNDLING.externalModules,
    mainFields: LAMBDA_BUNDLING.mainFields,
    banner: { js: LAMBDA_BUNDLING.banner },
    outfile,
  };
}
