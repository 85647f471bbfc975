/**
 * CloudFormation refuses a template whose resources depend on each other in a
 * circle, and only at deploy time: CDK's synth does not look. Function rights
 * are inline in each function's role (appFunction.ts `InlinePolicyRole`), so a
 * grant that names something which itself waits for the role (the function,
 * its alias, a queue whose policy names the role) would close such a circle.
 * This walks every Ref, Fn::GetAtt, Fn::Sub and DependsOn of each stack.
 */
import { describe, expect, it } from 'vitest';
import { buildTestApp, templatesOf } from './helpers';

type Resources = Record<string, { DependsOn?: string | string[] }>;

/** Every logical id a value refers to. */
function referencesIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referencesIn(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && typeof inner === 'string') out.add(inner);
      else if (key === 'Fn::GetAtt')
        out.add(Array.isArray(inner) ? String(inner[0]) : (String(inner).split('.')[0] as string));
      else {
        if (key === 'Fn::Sub') {
          const text = String(Array.isArray(inner) ? inner[0] : inner);
          for (const match of text.matchAll(/\$\{([A-Za-z0-9]+)[.}]/g)) out.add(match[1] as string);
        }
        referencesIn(inner, out);
      }
    }
  }
  return out;
}

/** The circles among resources, each as "A -> B -> A". */
function dependencyCycles(resources: Resources): string[] {
  const edges = new Map<string, string[]>();
  for (const [id, resource] of Object.entries(resources)) {
    const on = referencesIn(resource);
    for (const named of [resource.DependsOn ?? []].flat()) on.add(named);
    edges.set(
      id,
      [...on].filter((other) => other in resources && other !== id),
    );
  }
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (id: string, path: string[]) => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'open') {
      cycles.push([...path.slice(path.indexOf(id)), id].join(' -> '));
      return;
    }
    state.set(id, 'open');
    for (const next of edges.get(id) ?? []) visit(next, [...path, id]);
    state.set(id, 'done');
  };
  for (const id of edges.keys()) visit(id, []);
  return cycles;
}

describe('dependency cycles', () => {
  it('finds a circle through a role policy that names its own function', () => {
    expect(
      dependencyCycles({
        Role: { Properties: { Policies: [{ Resource: { 'Fn::GetAtt': ['Fn', 'Arn'] } }] } } as never,
        Fn: { Properties: { Role: { 'Fn::GetAtt': ['Role', 'Arn'] } } } as never,
        Queue: {},
      }),
    ).toEqual(['Role -> Fn -> Role']);
  });

  it('no stack has one', () => {
    for (const [name, template] of Object.entries(templatesOf(buildTestApp()))) {
      expect(dependencyCycles(template.toJSON().Resources as Resources), name).toEqual([]);
    }
  });
});
