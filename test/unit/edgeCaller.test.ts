/**
 * Who called, behind CloudFront (lambdas/src/platform/edge.ts): in AWS only a
 * request carrying the distribution's proof is served, and its viewer-address
 * header names the client for per-client limits; locally the gateway's source
 * address is used as before.
 */
import { describe, expect, it } from 'vitest';
import { edgeCaller, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../lambdas/src/platform/edge';

const SECRET = 'a-generated-value-of-48-characters-aaaaaaaaaaaa';
const event = (headers: Record<string, string>) =>
  ({ headers, requestContext: { http: { sourceIp: '203.0.113.9' } } }) as unknown as Parameters<
    typeof edgeCaller
  >[0];

describe('edgeCaller', () => {
  it('locally (no secret) takes the source address and serves every request', () => {
    expect(edgeCaller(event({ [VIEWER_ADDRESS_HEADER]: '1.1.1.1' }), undefined)).toEqual({
      throughEdge: true,
      clientIp: '203.0.113.9',
    });
  });

  it('through the distribution takes the viewer address it stamped', () => {
    const caller = edgeCaller(
      event({ [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '198.51.100.7' }),
      SECRET,
    );
    expect(caller).toEqual({ throughEdge: true, clientIp: '198.51.100.7' });
  });

  it.each([
    ['no proof', {}],
    ['a wrong proof', { [ORIGIN_VERIFY_HEADER]: `${SECRET.slice(0, -1)}b` }],
    ['a proof of another length', { [ORIGIN_VERIFY_HEADER]: 'short' }],
  ])('refuses a request with %s, and does not trust its viewer header', (_name, headers) => {
    const caller = edgeCaller(event({ ...headers, [VIEWER_ADDRESS_HEADER]: '1.1.1.1' }), SECRET);
    expect(caller).toEqual({ throughEdge: false, clientIp: '203.0.113.9' });
  });
});
