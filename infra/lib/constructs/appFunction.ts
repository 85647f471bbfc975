/**
 * The one way this app defines a Lambda: Node (nodeRuntime.ts) on arm64, X-Ray tracing where asked, its
 * own log group with retention, esbuild bundling with source maps, and its own
 * role that starts with nothing but writing its logs (no AWS managed policy),
 * its rights inline in the role (InlinePolicyRole).
 * Everything else a function may do is granted from its capabilities
 * (capabilities.ts), so the route table stays the single statement of rights.
 */
import path from 'node:path';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  type AddToPrincipalPolicyResult,
  type IGrantable,
  type IPrincipal,
  PolicyDocument,
  type PolicyStatement,
  Role,
  type RoleProps,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { repoRoot } from '../config';
import { LAMBDA_BUNDLING, LAMBDA_NODE_OPTIONS } from '../lambdaBundling';
import { LAMBDA_NODE_MAJOR } from '../nodeRuntime';

/** CDK's own runtime object for each major the app may be set to (nodeRuntime.ts). */
const runtimes = { 22: Runtime.NODEJS_22_X, 24: Runtime.NODEJS_24_X } as const;

export const FUNCTION_RUNTIME: Runtime = runtimes[LAMBDA_NODE_MAJOR];

export const FUNCTION_DEFAULTS = {
  memorySize: 256,
  timeout: Duration.seconds(10),
  logRetention: RetentionDays.THREE_MONTHS,
} as const;

/**
 * A role whose grants go into one inline policy of the role itself rather than
 * a separate `AWS::IAM::Policy` resource (CDK's DefaultPolicy). The rights are
 * the same; each function costs one CloudFormation resource less, which keeps
 * the API stack, one function per route, under CloudFormation's 500 resources
 * a stack (docs/decisions.md "One Lambda per route"). The role exists with
 * its rights before the function that uses it, so nothing waits on a policy
 * attached afterwards.
 */
export class InlinePolicyRole extends Role {
  private readonly rights: PolicyDocument;

  constructor(scope: Construct, id: string, props: RoleProps) {
    const rights = new PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, Rights: rights } });
    this.rights = rights;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.rights.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

export interface AppFunctionProps {
  /** Handler file, relative to the repository root (e.g. from handlerFile()); exports `handler`. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  /**
   * X-Ray active tracing. Only where a trace answers a question the metrics
   * cannot (the authorization webhook: was a slow answer a cold start?); see
   * docs/decisions.md "Observability". Default off.
   */
  tracing?: boolean;
}

export class AppFunction extends Construct implements IGrantable {
  readonly function: NodejsFunction;
  readonly role: InlinePolicyRole;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);

    // Retained: logs of a removed function may still be needed to answer a question about money.
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: FUNCTION_DEFAULTS.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.role = new InlinePolicyRole(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `${id}: ${props.description}`.slice(0, 1000),
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(repoRoot, props.entry),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
      description: props.description.slice(0, 256),
      runtime: FUNCTION_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? FUNCTION_DEFAULTS.memorySize,
      timeout: props.timeout ?? FUNCTION_DEFAULTS.timeout,
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...props.environment, NODE_OPTIONS: LAMBDA_NODE_OPTIONS },
      bundling: { format: OutputFormat.ESM, ...LAMBDA_BUNDLING },
    });

    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to Node.js 22 (LTS, supported until 2027), the release the handlers are written and bundled for; ' +
        'FUNCTION_RUNTIME and the esbuild target are bumped together on purpose, not by a library upgrade.',
    });
  }

  get grantPrincipal(): IPrincipal {
    return this.role;
  }
}
