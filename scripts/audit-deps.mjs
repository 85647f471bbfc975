#!/usr/bin/env node
/**
 * `npm run audit:deps`: npm's dependency audit, as CI runs it.
 *
 * - Fails on a high or critical advisory in a production dependency (what the
 *   Lambda bundles and the web app ship).
 * - Lists advisories in development dependencies (the local stand-ins, test
 *   and build tools) without failing: they never reach AWS or a browser.
 * - Where the registry does not answer audits (some mirrors refuse npm's bulk
 *   advisory endpoint with 405), says so in one line and passes: the audit is
 *   then done where the public registry answers (docs/testing.md).
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const BLOCKING = ['high', 'critical'];

function audit(args) {
  const run = spawnSync('npm', ['audit', '--json', ...args], { encoding: 'utf8' });
  try {
    return JSON.parse(run.stdout);
  } catch {
    return { message: run.stderr.trim().split('\n').at(-1) || 'no answer' };
  }
}

/** A real audit report has a version; anything else (an error body, no JSON) means no answer. */
export function unanswered(report) {
  if (report.auditReportVersion) return undefined;
  return report.message || report.error?.summary || 'no answer';
}

const line = (v) => `  ${v.severity.padEnd(8)} ${v.name}${v.fixAvailable ? '' : ' (no fix yet)'}`;

/** From the production-only and the full report: what to print and whether to fail. */
export function verdict(production, all) {
  const prod = production.vulnerabilities ?? {};
  const devOnly = Object.values(all.vulnerabilities ?? {}).filter((v) => !prod[v.name]);
  const blocking = Object.values(prod).filter((v) => BLOCKING.includes(v.severity));
  const out = [
    `Dependency audit: ${Object.keys(prod).length} advisories in production dependencies, ${devOnly.length} in development-only ones.`,
  ];
  if (devOnly.length > 0) out.push('Development only (not failing):', ...devOnly.map(line));
  if (blocking.length > 0)
    out.push('High or critical in production dependencies (failing):', ...blocking.map(line));
  return { lines: out, fail: blocking.length > 0 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const production = audit(['--omit=dev']);
  const reason = unanswered(production);
  if (reason) {
    console.log(`Dependency audit not run: the registry does not answer npm audit here (${reason}).`);
  } else {
    const result = verdict(production, audit([]));
    console.log(result.lines.join('\n'));
    process.exitCode = result.fail ? 1 : 0;
  }
}
