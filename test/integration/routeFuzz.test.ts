/**
 * Hostile input to every route of the route table (docs/testing.md "Route
 * fuzz"): broken JSON, huge strings, deep nesting, `__proto__`, NUL and bidi
 * text, 1e308, negative and fractional money, long ids, in bodies, query
 * strings and path parameters, signed in (manager, employee) and not. Every
 * answer must be below 500 and, when refused, our error envelope with the
 * status of its code (the gateway's own 401 before a signed-in route and 413
 * over API Gateway's payload limit answer as API Gateway does). Afterwards
 * nothing is stored (a scan of the table equals the one before, apart from
 * rate-limit counters, which requests legitimately write), nothing is charged,
 * and the ledger's invariants hold.
 *
 * Bounded: FUZZ_RUNS (default 10) hostile requests per route and actor kind.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { type OperationId, operationIds, type RouteDef, routes } from '@shared/api/routes';
import { type AccountId, mayGoNegative } from '@shared/domain/ledger';
import { errorCodes, isErrorEnvelope } from '@shared/errors';
import fc from 'fast-check';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedIn } from '../support/accountFlows';
import {
  CLIENT_IP_HEADER,
  type IntegrationStack,
  newClientIp,
  startIntegrationStack,
} from '../support/integrationStack';
import { emulatorClient, joinTeam, sender, setUpTeam } from '../support/teams';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);

let stack: IntegrationStack;
let stripe: Stripe;
let manager: SignedIn;
let employee: SignedIn;
let customerId: string;

beforeAll(async () => {
  stack = await startIntegrationStack({ stripe: true });
  stripe = emulatorClient(stack);
  const team = await setUpTeam(stack);
  manager = team.manager;
  customerId = team.customerId;
  employee = await joinTeam(stack, manager, 25);
  // Writes a hostile body may repeat harmlessly are made first, so repeating them changes nothing.
  const send = sender(stack);
  for (const who of [manager, employee])
    expect((await send('POST', '/me/walkthrough', who.accessToken, {})).status).toBeLessThan(300);
});
afterAll(async () => {
  await stack?.stop();
});

// --- Hostile values ------------------------------------------------------------------

const nasty = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202Egnp.exe\u202C',
  // Six characters, more bytes: a code compared in constant time must be refused before (attack 12).
  'é12345',
  '\u202E12345',
  '１２３４５６',
  '\u2066\u200F\u061C',
  '\uFEFF',
  '\uD800',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text.
  '${7*7}{{7*7}}',
  '%00%2e%2e%2f',
  '../../etc/passwd',
  'NaN',
  'Infinity',
  '-1',
  '0.001',
  '1e308',
];

const hostileString = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 65, max: 40_000 }).map((n) => 'x'.repeat(n)),
);

const hostileNumber = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 53,
  -1,
  -0.01,
  0.5,
  12.345,
  0,
  1e-7,
  -2147483649,
);

/** Nested arrays and objects, `depth` deep. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const leaf = fc.oneof(hostileString, hostileNumber, fc.constant(null), fc.boolean());
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 2, max: 2000 }), leaf).map(([d, v]) => nested(d, v)) },
  { weight: 1, arbitrary: fc.constant(JSON.parse('{"__proto__":{"role":"manager","isAdmin":true}}')) },
);

/** Field names: the route's own (hostile values where real ones go), and prototype keys. */
function fieldNames(route: RouteDef): string[] {
  const shape = (route.input as unknown as { shape?: Record<string, unknown> }).shape;
  return [...Object.keys(shape ?? {}), '__proto__', 'constructor', 'prototype', 'role', 'teamId'];
}

/** An object whose own keys may include `__proto__` (defineProperty keeps it an own key for JSON). */
function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries)
    Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
  return object;
}

const rawBodies = fc.constantFrom(
  '{',
  '{"a":',
  '{"amount": 1e999}',
  'null',
  '[]',
  '"text"',
  '1e308',
  '\u0000',
  '{"a":1} trailing',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `{"x":${'{"y":'.repeat(5000)}1${'}'.repeat(5000)}}`,
  '{"__proto__":{"role":"manager"},"constructor":{"prototype":{"polluted":true}}}',
);

type Actor = 'visitor' | 'manager' | 'employee';

interface Hostile {
  actor: Actor;
  body: { kind: 'json'; value: Record<string, unknown> } | { kind: 'raw'; text: string } | { kind: 'bytes' };
  contentType: string | undefined;
  pathValue: string;
  idempotencyKey: string | undefined;
}

/**
 * A signed-in write that takes no input (suspend the subscription, start
 * enrolling an authenticator, ...): every body is a valid request to it, since
 * unknown fields are ignored, so signed in it would rightly store something.
 * Such routes are fuzzed as a visitor only (refused, nothing stored); their
 * signed-in effects are their own tests' subject.
 */
function takesNoInput(route: RouteDef): boolean {
  const shape = (route.input as unknown as { shape?: Record<string, unknown> }).shape;
  return route.method !== 'GET' && route.access.kind === 'signedIn' && Object.keys(shape ?? {}).length === 0;
}

function hostileRequest(route: RouteDef): fc.Arbitrary<Hostile> {
  const names = fieldNames(route);
  return fc.record({
    actor: takesNoInput(route)
      ? fc.constant<Actor>('visitor')
      : fc.constantFrom<Actor>('visitor', 'manager', 'employee'),
    body: fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .array(fc.tuple(fc.constantFrom(...names), hostileValue), { maxLength: 6 })
          .map((entries) => ({ kind: 'json' as const, value: objectOf(entries) })),
      },
      { weight: 2, arbitrary: rawBodies.map((text) => ({ kind: 'raw' as const, text })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'bytes' as const }) },
    ),
    contentType: fc.constantFrom('application/json', 'application/json', 'text/plain', undefined),
    // Long ids, but within what a URL can carry (Node and API Gateway refuse longer before our code runs).
    pathValue: fc.oneof(
      fc.constantFrom(...nasty.filter((s) => s.length > 0)),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
      fc.integer({ min: 65, max: 2000 }).map((n) => 'x'.repeat(n)),
    ),
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom('short', 'bad key!', 'k'.repeat(200)))),
  }) as fc.Arbitrary<Hostile>;
}

function asQuery(value: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, v] of Object.entries(value))
    params.append(key, typeof v === 'string' ? v.slice(0, 2000) : (JSON.stringify(v)?.slice(0, 2000) ?? ''));
  const text = params.toString().slice(0, 6000);
  return text ? `?${text}` : '';
}

async function send(route: RouteDef, input: Hostile): Promise<{ status: number; text: string }> {
  // A lone surrogate cannot be percent-encoded: send broken escapes and invalid UTF-8 instead.
  const wellFormed = !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(
    input.pathValue,
  );
  const segment = wellFormed ? encodeURIComponent(input.pathValue) : '%ED%A0%80%FF%ZZ';
  const path = route.path.replace(/\{[^}]+\}/g, () => segment);
  const token =
    input.actor === 'manager'
      ? manager.accessToken
      : input.actor === 'employee'
        ? employee.accessToken
        : undefined;
  const headers: Record<string, string> = { [CLIENT_IP_HEADER]: newClientIp() };
  if (token) headers.authorization = `Bearer ${token}`;
  if (input.contentType) headers['content-type'] = input.contentType;
  if (input.idempotencyKey) headers['idempotency-key'] = input.idempotencyKey;
  let body: string | Blob | undefined;
  let query = '';
  if (input.body.kind === 'json') {
    if (route.method === 'GET') query = asQuery(input.body.value);
    else body = JSON.stringify(input.body.value);
  } else if (input.body.kind === 'raw') body = input.body.text;
  else body = new Blob([new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x7b])]);
  if (route.method === 'GET') body = undefined;
  const response = await fetch(`${stack.apiUrl}${path}${query}`, { method: route.method, headers, body });
  return { status: response.status, text: await response.text() };
}

/** Our envelope with the status of its code; or API Gateway's own refusals, which come before our code. */
function checkAnswer(op: OperationId, input: Hostile, answer: { status: number; text: string }) {
  const what = `${op} ${input.actor} path:${JSON.stringify(input.pathValue).slice(0, 80)}(${input.pathValue.length}) key:${input.idempotencyKey?.length} ${input.body.kind} ${JSON.stringify(input.body).slice(0, 300)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, what).toBeLessThan(500);
  if (answer.status < 400) return;
  let body: { message?: string; error?: { code: string } };
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`not JSON: ${what}`);
  }
  if (answer.status === 401 && body.message === 'Unauthorized' && routes[op].access.kind === 'signedIn')
    return;
  // SCIM routes answer in the RFC 7644 error format, its status as a string (issue 28).
  if (routes[op].access.kind === 'scimToken') {
    expect(body, what).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: String(answer.status),
    });
    return;
  }
  expect(isErrorEnvelope(body), what).toBe(true);
  if (routes[op].access.kind !== 'stripeSignature')
    expect(errorCodes[body.error?.code as keyof typeof errorCodes], what).toBe(answer.status);
}

// --- What must not change ------------------------------------------------------------

function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/**
 * Every item but rate-limit and sign-in failure counters (requests legitimately
 * count themselves; a hostile password at step-up is a wrong password, counted).
 */
async function tableSnapshot(): Promise<Map<string, string>> {
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stack.doc.send(
      new ScanCommand({ TableName: stack.tableName, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    for (const item of page.Items ?? []) {
      if (String(item.pk).startsWith('RATE#') || String(item.pk).startsWith('SIGNINFAIL#')) continue;
      items.set(`${item.pk}|${item.sk}`, stable(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The books balance (all balances sum to zero) and no internal account is below zero. */
function checkLedger(snapshot: Map<string, string>) {
  let sum = 0;
  for (const [key, text] of snapshot) {
    if (!key.startsWith('ACCOUNT#') || !key.endsWith('|BALANCE')) continue;
    const item = JSON.parse(text) as { accountId: AccountId; balanceCents: number };
    expect(Number.isSafeInteger(item.balanceCents), key).toBe(true);
    if (!mayGoNegative(item.accountId)) expect(item.balanceCents, key).toBeGreaterThanOrEqual(0);
    sum += item.balanceCents;
  }
  expect(sum).toBe(0);
}

async function chargeCount(): Promise<number> {
  return (await stripe.charges.list({ customer: customerId, limit: 100 })).data.length;
}

describe('every route under hostile input', () => {
  it(`answers below 500 with the error envelope, stores nothing, charges nothing (${RUNS} runs a route)`, async () => {
    const before = await tableSnapshot();
    checkLedger(before);
    const charges = await chargeCount();

    for (const op of operationIds) {
      const route = routes[op] as RouteDef;
      await fc.assert(
        fc.asyncProperty(hostileRequest(route), async (input) => {
          checkAnswer(op, input, await send(route, input));
        }),
        {
          numRuns: RUNS,
          // The counterexample can be 100 KB of hostile text: report the request briefly instead.
          reporter: (run) => {
            if (run.failed)
              throw new Error(`${op} (seed ${run.seed}): ${String(run.errorInstance).slice(0, 1500)}`);
          },
        },
      );
    }

    const after = await tableSnapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
      (key) => before.get(key) !== after.get(key),
    );
    expect(changed.map((key) => `${key}: ${before.get(key)} -> ${after.get(key)}`)).toEqual([]);
    checkLedger(after);
    expect(await chargeCount()).toBe(charges);
  }, 600_000);
});
