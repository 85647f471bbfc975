import { describe, expect, it } from 'vitest';
import { decodeProcAddress, isLoopback } from '../support/listeningSockets';

describe('reading listening sockets from /proc/net/tcp{,6}', () => {
  it.each([
    ['0100007F', '127.0.0.1', true],
    ['00000000', '0.0.0.0', false],
    ['0A00020F', '15.2.0.10', false],
    ['00000000000000000000000001000000', '::1', true],
    ['00000000000000000000000000000000', '::', false],
    ['0000000000000000FFFF00000100007F', '::ffff:127.0.0.1', true],
    ['0000000000000000FFFF00000F02000A', '::ffff:10.0.2.15', false],
  ])('%s is %s (loopback: %s)', (hex, address, loopback) => {
    expect(decodeProcAddress(hex)).toBe(address);
    expect(isLoopback(address)).toBe(loopback);
  });
});
