import { describe, expect, it } from 'vitest';
import { forwardedClientIp, normaliseAddress } from './client-ip.ts';

describe('forwardedClientIp', () => {
  it('ignores X-Forwarded-For unless proxies are trusted', () => {
    expect(forwardedClientIp('6.6.6.6', 0)).toBeUndefined();
  });

  it('takes the entry written by the outermost trusted proxy, so a forged prefix does not count', () => {
    expect(forwardedClientIp('6.6.6.6, 1.2.3.4', 1)).toBe('1.2.3.4');
    expect(forwardedClientIp('6.6.6.6, 1.2.3.4, 10.0.0.2', 2)).toBe('1.2.3.4');
    expect(forwardedClientIp('1.2.3.4', 3)).toBe('1.2.3.4');
    expect(forwardedClientIp(undefined, 1)).toBeUndefined();
    expect(forwardedClientIp(' , ', 1)).toBeUndefined();
  });

  it('prints IPv4-mapped IPv6 peers as IPv4', () => {
    expect(normaliseAddress('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(normaliseAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseAddress('2001:db8::1')).toBe('2001:db8::1');
  });
});
