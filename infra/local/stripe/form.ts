/**
 * Stripe's request encoding: application/x-www-form-urlencoded with bracket
 * notation for nesting (`metadata[k]=v`, `items[0][price]=p`, `expand[]=x`).
 * The SDK sends indexed arrays (`expand[0]=x`), browsers and curl often send
 * `expand[]=x`; both parse here. Indexed entries stay objects keyed "0", "1"...
 * because only the endpoint knows whether `metadata[0]` is an array element or
 * a metadata key; `Params.array` turns them into arrays where one is expected.
 */
import { invalidRequest } from './errors';

export type FormValue = string | FormValue[] | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

/** `a[b][0][]` -> ['a', 'b', '0', '']; a key that is not well formed stays whole. */
export function keyPath(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const rest = key.slice(open);
  if (!/^(\[[^[\]]*\])+$/.test(rest)) return [key];
  return [key.slice(0, open), ...Array.from(rest.matchAll(/\[([^[\]]*)\]/g), (m) => m[1] ?? '')];
}

function isObject(value: FormValue | undefined): value is FormObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function conflict(path: string[]): never {
  throw invalidRequest(
    `Invalid mix of a value and nested parameters for ${formatPath(path)}`,
    formatPath(path),
  );
}

/** Names a parameter path the way Stripe's errors do: `spending_controls[spending_limits][0][amount]`. */
export function formatPath(path: readonly string[]): string {
  const [head, ...rest] = path;
  return `${head ?? ''}${rest.map((p) => `[${p}]`).join('')}`;
}

function insert(root: FormObject, path: string[], value: string): void {
  let parent: FormObject | FormValue[] = root;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as string;
    const last = i === path.length - 1;
    const wantsArray = path[i + 1] === '';
    if (Array.isArray(parent)) {
      // Arrays are only made for `[]`, and every `[]` appends a fresh element.
      const child: FormValue = last ? value : wantsArray ? [] : {};
      parent.push(child);
      if (last) return;
      parent = child as FormObject | FormValue[];
      continue;
    }
    const existing: FormValue | undefined = parent[segment];
    if (last) {
      if (existing !== undefined && typeof existing !== 'string') conflict(path);
      parent[segment] = value; // a repeated plain key: the last one wins, as on Stripe
      return;
    }
    if (existing === undefined) parent[segment] = wantsArray ? [] : {};
    else if (wantsArray ? !Array.isArray(existing) : !isObject(existing)) conflict(path.slice(0, i + 1));
    parent = parent[segment] as FormObject | FormValue[];
  }
}

/** Parses a form-encoded body or query string into nested objects and arrays. */
export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (key === '') continue;
    insert(root, keyPath(key), value);
  }
  return root;
}

/** The inverse (what the SDK sends), for tests: nested values to indexed bracket notation. */
export function encodeForm(data: Record<string, unknown>): string {
  const pairs: string[] = [];
  const walk = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (value === null) pairs.push(`${encodeURIComponent(key)}=`);
    else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(`${key}[${i}]`, v);
    } else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(`${key}[${k}]`, v);
    else pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  for (const [k, v] of Object.entries(data)) walk(k, v);
  return pairs.join('&');
}
