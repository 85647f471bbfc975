import { existsSync } from 'node:fs';
import { type Access, handlerFile, matchPath, operationIds, routes } from '@shared/api/routes';
import { jobFile, jobIds } from '@shared/api/schedules';
import { describe, expect, it } from 'vitest';

describe('the route table', () => {
  it.each(operationIds)('%s has a handler module that exports `handler`', async (op) => {
    expect(existsSync(handlerFile(op))).toBe(true);
    const mod = (await import(`../../${handlerFile(op)}`)) as { handler?: unknown };
    expect(typeof mod.handler).toBe('function');
  });

  it.each(operationIds)('%s names who may call it', (op) => {
    const access: Access = routes[op].access;
    if (access.kind === 'signedIn') expect(access.roles.length).toBeGreaterThan(0);
    else if (access.kind === 'scimToken') expect(access.rateLimit.limit).toBeGreaterThan(0);
    else expect(['public', 'stripeSignature']).toContain(access.kind);
  });

  it.each(operationIds.filter((op) => routes[op].access.kind === 'public' && routes[op].method !== 'GET'))(
    'public write route %s is rate limited',
    (op) => {
      const access: Access = routes[op].access;
      expect(access.kind === 'public' && access.rateLimit).toBeTruthy();
    },
  );

  it.each(operationIds)('%s is granted what its wrapper needs (actor lookup, rate-limit counters)', (op) => {
    const access: Access = routes[op].access;
    const uses: readonly string[] = routes[op].uses;
    if (access.kind === 'signedIn') expect(uses.some((u) => u.startsWith('table:'))).toBe(true);
    if ('rateLimit' in access && access.rateLimit) expect(uses).toContain('table:write');
  });

  it.each(operationIds)('%s has a plain-ASCII summary (it becomes an IAM role description)', (op) => {
    expect(routes[op].summary).toMatch(/^[\x20-\x7E]+$/);
  });

  it('takes a form body only on public routes (RFC 8058 one-click): a signed-in one would be open to cross-site forms', () => {
    const forms = operationIds.filter((op) => (routes[op] as { acceptsForm?: true }).acceptsForm);
    expect(forms).toEqual(['unsubscribeEmail']);
    for (const op of forms) expect(routes[op].access.kind).toBe('public');
  });

  it('has no two routes on the same method and path', () => {
    const seen = new Set(operationIds.map((op) => `${routes[op].method} ${routes[op].path}`));
    expect(seen.size).toBe(operationIds.length);
  });

  it.each(jobIds)('job %s has a handler module', async (id) => {
    const mod = (await import(`../../${jobFile(id)}`)) as { handler?: unknown };
    expect(typeof mod.handler).toBe('function');
  });
});

describe('matchPath', () => {
  it.each([
    ['/waitlist', '/waitlist', {}],
    ['/employees/{userId}', '/employees/u1', { userId: 'u1' }],
    ['/cards/{cardId}/users/{userId}', '/cards/c%201/users/u2', { cardId: 'c 1', userId: 'u2' }],
    ['/employees/{userId}', '/employees', undefined],
    ['/employees/{userId}', '/employees/u1/extra', undefined],
    ['/waitlist', '/messages', undefined],
    // A malformed escape is passed on as sent, for the route to refuse (it crashed the gateway: route fuzz).
    ['/users/{userId}', '/users/%ED%A0%80%FF%ZZ', { userId: '%ED%A0%80%FF%ZZ' }],
  ])('%s against %s', (template, actual, expected) => {
    expect(matchPath(template, actual)).toEqual(expected);
  });
});
