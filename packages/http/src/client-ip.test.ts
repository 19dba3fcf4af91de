import { describe, expect, it } from 'vitest';
import { forwardedClientIp, normaliseAddress } from './client-ip.ts';

describe('forwardedClientIp', () => {
  it("takes the edge's entry, the last one, and nothing when there is none", () => {
    expect(forwardedClientIp(undefined)).toBeUndefined();
    expect(forwardedClientIp('')).toBeUndefined();
    expect(forwardedClientIp('203.0.113.7')).toBe('203.0.113.7');
    expect(forwardedClientIp('6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
    expect(forwardedClientIp('2001:db8::1')).toBe('2001:db8::1');
  });

  it('prints IPv4-mapped IPv6 peers as IPv4', () => {
    expect(normaliseAddress('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(normaliseAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(forwardedClientIp('::ffff:10.1.2.3')).toBe('10.1.2.3');
  });
});
