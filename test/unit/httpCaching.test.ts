/** Conditional GETs in the HTTP wrapper (platform/http.ts): ETag shape and If-None-Match matching. */
import { describe, expect, it } from 'vitest';
import { etagOf, matchesIfNoneMatch } from '../../lambdas/src/platform/http';

describe('etagOf', () => {
  it('is a weak, quoted tag that follows the content', () => {
    expect(etagOf('{"a":1}')).toMatch(/^W\/"[\w-]{32}"$/);
    expect(etagOf('{"a":1}')).toBe(etagOf('{"a":1}'));
    expect(etagOf('{"a":1}')).not.toBe(etagOf('{"a":2}'));
  });
});

describe('matchesIfNoneMatch', () => {
  const tag = etagOf('body');
  const opaque = tag.slice(2);
  it.each([
    [undefined, false],
    ['', false],
    [tag, true],
    [opaque, true],
    [`W/"other", ${tag}`, true],
    ['*', true],
    ['W/"other"', false],
  ])('%s -> %s', (header, expected) => {
    expect(matchesIfNoneMatch(header, tag)).toBe(expected);
  });
});
