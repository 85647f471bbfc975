/**
 * Attack 11 (issue 24): second-factor secrets are sealed before they reach the
 * table, for one user only, and an altered value does not open.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { isSealed, openSecret, sealSecret } from '../../lambdas/src/adapters/factorKey';

beforeAll(() => {
  process.env.FACTOR_KEY = 'unit-test-factor-key-not-a-secret';
});

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('attack 11: sealed factor secrets', () => {
  it('holds nothing of the secret, differs each time, and opens for its own user', async () => {
    const a = await sealSecret('user-1', SECRET);
    const b = await sealSecret('user-1', SECRET);
    expect(isSealed(a)).toBe(true);
    expect(a).not.toContain(SECRET);
    expect(a).not.toBe(b);
    expect(await openSecret('user-1', a)).toBe(SECRET);
    expect(await openSecret('user-1', b)).toBe(SECRET);
  });

  it('does not open on another account, nor once altered', async () => {
    const sealed = await sealSecret('user-1', SECRET);
    await expect(openSecret('user-2', sealed)).rejects.toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    await expect(openSecret('user-1', parts.join('.'))).rejects.toThrow();
  });

  it('answers a secret stored before sealing as it is (it is sealed on its next use)', async () => {
    expect(isSealed(SECRET)).toBe(false);
    expect(await openSecret('user-1', SECRET)).toBe(SECRET);
  });
});
