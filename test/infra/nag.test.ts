/**
 * cdk-nag's AwsSolutions pack over all four stacks. cdk-nag 3 runs as a CDK
 * policy-validation plugin: an unacknowledged finding (error or warning)
 * fails the synth, so `npm run synth` and these tests agree.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildAppProps, BuiltApp } from '../../infra/lib/app';
import { AppNagChecks } from '../../infra/lib/nag';
import { buildTestApp, SOCIAL_CONFIG, testApp } from './helpers';

/** Every shape of the app the pack must pass: as by default, and with social sign-in (pre-sign-up trigger). */
const CONFIGURATIONS: [string, BuildAppProps][] = [
  ['default configuration', {}],
  ['social sign-in (Google and Facebook)', { ...SOCIAL_CONFIG, facebookSecretName: 'test/facebook-oauth' }],
];

interface Acknowledgment {
  path: string;
  id: string;
  reason: string;
}

function acknowledgments(scope: IConstruct): Acknowledgment[] {
  return scope.node.findAll().flatMap((node) =>
    node.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) =>
        Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({
          path: node.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

describe.each(CONFIGURATIONS)('cdk-nag AwsSolutions, %s', (_name, props) => {
  let built: BuiltApp;
  let synthError: unknown;

  beforeAll(() => {
    built = buildTestApp({ ...props, nag: true });
    try {
      built.app.synth();
    } catch (error) {
      synthError = error;
    }
  });

  it('the synth passes the pack', () => {
    expect(synthError === undefined ? '' : String((synthError as Error).message)).toBe('');
  });

  it('finds nothing unacknowledged in any stack (errors and warnings)', () => {
    const report = new AppNagChecks().validateScope(built.app);
    const findings = report.violations.flatMap((v) =>
      v.violatingResources.map(
        (r) => `${v.severity} ${v.ruleName} ${r.constructPath ?? r.resourceLogicalId}`,
      ),
    );
    expect(findings).toEqual([]);
  });

  it('every acknowledgment is an AwsSolutions rule with a written reason', () => {
    const all = acknowledgments(built.app).filter((a) => a.id.startsWith('AwsSolutions-'));
    expect(all.length).toBeGreaterThan(0);
    for (const a of all) {
      expect(a.reason.length, `${a.id} at ${a.path}`).toBeGreaterThanOrEqual(40);
    }
  });

  it('no rule is acknowledged for a whole stack or the app', () => {
    const stackLevel = acknowledgments(built.app).filter((a) => !a.path.includes('/'));
    expect(stackLevel).toEqual([]);
  });

  it('acknowledges no user-pool wildcard: the pre-sign-up trigger links in its own pool only', () => {
    expect(acknowledgments(built.app).filter((a) => a.id.includes(':cognito-idp:'))).toEqual([]);
  });
});

describe('the reviewed wildcard list', () => {
  function findingsFor(statement: PolicyStatement): string[] {
    const app = testApp();
    const stack = new Stack(app, 'Probe', { env: { account: '123456789012', region: 'us-east-1' } });
    new Role(stack, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') }).addToPolicy(
      statement,
    );
    app.synth();
    return new AppNagChecks().validateScope(app).violations.map((v) => v.ruleName);
  }

  it('still reports a wildcard it has not reviewed', () => {
    expect(findingsFor(new PolicyStatement({ actions: ['s3:*'], resources: ['*'] }))).toEqual(
      expect.arrayContaining(['AwsSolutions-IAM5[Action::s3:*]', 'AwsSolutions-IAM5[Resource::*]']),
    );
    expect(findingsFor(new PolicyStatement({ actions: ['ses:SendEmail'], resources: ['*'] }))).toEqual([
      'AwsSolutions-IAM5[Resource::*]',
    ]);
    expect(findingsFor(new PolicyStatement({ actions: ['s3:GetObject*'], resources: ['*'] })).sort()).toEqual(
      ['AwsSolutions-IAM5[Action::s3:GetObject*]', 'AwsSolutions-IAM5[Resource::*]'],
    );
  });

  it('accepts the shapes it has reviewed', () => {
    expect(
      findingsFor(
        new PolicyStatement({
          actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
          resources: ['*'],
        }),
      ),
    ).toEqual([]);
    expect(
      findingsFor(
        new PolicyStatement({ actions: ['s3:GetObject*'], resources: ['arn:aws:s3:::some-bucket/*'] }),
      ),
    ).toEqual([]);
  });

  it('accepts no Cognito action on any user pool of the account', () => {
    const anyPool = 'arn:aws:cognito-idp:us-east-1:123456789012:userpool/*';
    expect(
      findingsFor(
        new PolicyStatement({ actions: ['cognito-idp:AdminLinkProviderForUser'], resources: [anyPool] }),
      ),
    ).toEqual([`AwsSolutions-IAM5[Resource::${anyPool}]`]);
  });
});
