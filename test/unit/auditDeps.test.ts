import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { unanswered, verdict } from '../../scripts/audit-deps.mjs';

const advisory = (name: string, severity: string) => ({ name, severity, fixAvailable: true });
const report = (...list: ReturnType<typeof advisory>[]) => ({
  auditReportVersion: 2,
  vulnerabilities: Object.fromEntries(list.map((v) => [v.name, v])),
});

describe('the dependency audit CI runs (scripts/audit-deps.mjs)', () => {
  it('fails on a high or critical advisory in a production dependency', () => {
    const result = verdict(report(advisory('stripe', 'high')), report(advisory('stripe', 'high')));
    expect(result.fail).toBe(true);
    expect(result.lines.join('\n')).toContain('high     stripe');
  });

  it('lists development-only and moderate advisories without failing', () => {
    const result = verdict(
      report(advisory('zod', 'moderate')),
      report(advisory('zod', 'moderate'), advisory('s3rver', 'critical')),
    );
    expect(result.fail).toBe(false);
    expect(result.lines[0]).toBe(
      'Dependency audit: 1 advisories in production dependencies, 1 in development-only ones.',
    );
    expect(result.lines).toContain('  critical s3rver');
  });

  it('tells an unanswered audit (an error body from the registry) from a report', () => {
    expect(unanswered({ message: '405 Method Not Allowed', error: { summary: '' } })).toBe(
      '405 Method Not Allowed',
    );
    expect(unanswered(report())).toBeUndefined();
  });
});
