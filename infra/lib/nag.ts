/**
 * cdk-nag (AwsSolutions pack) plus the wildcard permissions we have reviewed.
 *
 * cdk-nag 3 acknowledges one finding at a time, and a wildcard finding names
 * the resource as it reads after synthesis (`Resource::<export name>/*` for a
 * bucket in another stack), which no one can spell in advance. So instead of
 * hand-copied ids, the IAM5 findings are acknowledged here, just before the
 * pack runs, when they match one of the reviewed shapes below - each with the
 * reason it is acceptable. Any other wildcard still fails the synth.
 *
 * Every other acknowledgment sits next to the resource it is about.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import { CfnPolicy, CfnRole } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks, type NagPackProps, rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

interface Statement {
  actions: string[];
  /** Flattened the way cdk-nag prints them. */
  resources: string[];
}

interface ReviewedWildcard {
  /** Does this finding, given the statements that produce it, have this shape? */
  matches(finding: { kind: 'Action' | 'Resource'; value: string }, statements: Statement[]): boolean;
  reason: string;
}

const only = (statements: Statement[], test: (action: string) => boolean) =>
  statements.every((s) => s.actions.every(test));

const XRAY_ACTIONS = new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']);
const INVALIDATION_ACTIONS = new Set(['cloudfront:CreateInvalidation', 'cloudfront:GetInvalidation']);
/** Action groups used by CDK's bucket grants (grantRead, grantPut, grantDelete). */
const S3_GRANT_ACTION_GROUPS = new Set([
  's3:GetObject*',
  's3:GetBucket*',
  's3:List*',
  's3:Abort*',
  's3:DeleteObject*',
]);

export const REVIEWED_WILDCARDS: ReviewedWildcard[] = [
  {
    matches: (f, st) => f.kind === 'Resource' && f.value === '*' && only(st, (a) => XRAY_ACTIONS.has(a)),
    reason:
      'X-Ray PutTraceSegments/PutTelemetryRecords have no resource-level permissions; added by tracing: ACTIVE.',
  },
  {
    matches: (f, st) =>
      f.kind === 'Resource' && f.value === '*' && only(st, (a) => INVALIDATION_ACTIONS.has(a)),
    reason:
      "CDK's BucketDeployment invalidates the site's own distribution after an upload and grants the " +
      'invalidation actions on *; they can change nothing but cache state.',
  },
  {
    matches: (f, st) =>
      f.kind === 'Resource' && f.value.endsWith('/index/*') && only(st, (a) => a.startsWith('dynamodb:')),
    reason:
      "Queries on the single table's own global secondary indexes (gsi1 to gsi4 from tableSpec); the ARN " +
      'pattern is bounded to that one table.',
  },
  {
    matches: (f, st) =>
      f.kind === 'Resource' &&
      f.value !== '*' &&
      f.value.endsWith('/*') &&
      only(st, (a) => a.startsWith('s3:')),
    reason: 'Object-level S3 actions need an object ARN pattern; it is bounded to one named bucket.',
  },
  {
    matches: (f, st) =>
      f.kind === 'Action' &&
      S3_GRANT_ACTION_GROUPS.has(f.value) &&
      st.every((s) => s.resources.every((r) => r !== '*' && r.length > 1)),
    reason:
      "CDK's bucket grant action groups (GetObject*, GetBucket*, List*, Abort*, DeleteObject*), applied to " +
      'one named bucket and its objects only.',
  },
];

/** Same text cdk-nag prints for a policy resource (see cdk-nag utils/flatten-cfn-reference). */
export function flattenReference(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/}/g, '>');
  if (typeof node === 'object' && node !== null) {
    const o = node as Record<string, unknown>;
    if (o['Fn::Join']) {
      const [delimiter, items] = o['Fn::Join'] as [string, unknown[]];
      return items.map(flattenReference).join(delimiter);
    }
    if (o['Fn::Sub']) return flattenReference(o['Fn::Sub']);
    if (o['Fn::GetAtt']) {
      const [resource, attribute] = o['Fn::GetAtt'] as [unknown, unknown];
      return `<${flattenReference(resource)}.${flattenReference(attribute)}>`;
    }
    if (o['Fn::ImportValue']) return flattenReference(o['Fn::ImportValue']);
    if (o.Ref) return `<${flattenReference(o.Ref)}>`;
  }
  return JSON.stringify(node);
}

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

type PolicyDoc = { Statement?: Record<string, unknown>[] };

/** The policy documents of a policy resource, or the inline policies of a role (constructs/appFunction.ts). */
function documentsOf(node: CfnPolicy | CfnRole): PolicyDoc[] {
  const stack = Stack.of(node);
  if (node instanceof CfnPolicy) return [stack.resolve(node.policyDocument) as PolicyDoc];
  // Resolved from the construct, the inline policies keep CDK's property names (policyDocument).
  const inline = asArray(stack.resolve(node.policies) as { policyDocument?: PolicyDoc }[] | undefined);
  return inline.map((p) => p.policyDocument ?? {});
}

function allowStatements(node: CfnPolicy | CfnRole): Statement[] {
  return documentsOf(node).flatMap((doc) =>
    (doc.Statement ?? [])
      .filter((s) => s.Effect === 'Allow')
      .map((s) => ({
        actions: asArray(s.Action as string | string[]),
        resources: asArray(s.Resource).map(flattenReference),
      })),
  );
}

/** Acknowledges the IAM5 findings under `scope` that match a reviewed shape; returns what it acknowledged. */
export function acknowledgeReviewedWildcards(
  scope: IConstruct,
): { path: string; id: string; reason: string }[] {
  const done: { path: string; id: string; reason: string }[] = [];
  for (const node of scope.node.findAll()) {
    if (!(node instanceof CfnPolicy) && !(node instanceof CfnRole)) continue;
    const findings = rules.iam.IAMNoWildcardPermissions(node);
    if (!Array.isArray(findings)) continue;
    const statements = allowStatements(node);
    for (const finding of findings) {
      const [kind, value] = [
        finding.slice(0, finding.indexOf('::')),
        finding.slice(finding.indexOf('::') + 2),
      ];
      if (kind !== 'Action' && kind !== 'Resource') continue;
      const producing = statements.filter((s) =>
        kind === 'Action' ? s.actions.includes(value) : s.resources.includes(value),
      );
      if (producing.length === 0) continue;
      const reviewed = REVIEWED_WILDCARDS.find((r) => r.matches({ kind, value }, producing));
      if (!reviewed) continue;
      const id = `AwsSolutions-IAM5[${finding}]`;
      Validations.of(node).acknowledge({ id, reason: reviewed.reason });
      done.push({ path: node.node.path, id, reason: reviewed.reason });
    }
  }
  return done;
}

/** AwsSolutionsChecks that first acknowledges the reviewed wildcard shapes. */
export class AppNagChecks extends AwsSolutionsChecks {
  constructor(scope?: IConstruct, props?: NagPackProps) {
    super(scope, props);
  }

  override validateScope(scope: IConstruct) {
    acknowledgeReviewedWildcards(scope);
    return super.validateScope(scope);
  }
}
