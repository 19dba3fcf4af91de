import { describe, expect, it } from 'vitest';
import { forwardedClientIp, rateLimitKeyOfIp, normaliseAddress } from './client-ip.ts';

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

  it('drops the port or brackets some proxies write, so each source port is not a budget of its own', () => {
    expect(forwardedClientIp('6.6.6.6, 1.2.3.4:5678', 1)).toBe('1.2.3.4');
    expect(forwardedClientIp('[2001:db8:1:2::7]:443', 1)).toBe('2001:db8:1:2::7');
    expect(forwardedClientIp('[2001:db8:1:2::7]', 1)).toBe('2001:db8:1:2::7');
    expect(rateLimitKeyOfIp(forwardedClientIp('[2001:db8:1:2::7]:443', 1)!)).toBe('2001:db8:1:2::/64');
    expect(forwardedClientIp('2001:db8::1', 1)).toBe('2001:db8::1');
  });

  it('prints IPv4-mapped IPv6 peers as IPv4', () => {
    expect(normaliseAddress('0000:0000:0000:0000:0000:ffff:7f00:0001')).toBe('127.0.0.1');
    expect(normaliseAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseAddress('2001:db8::1')).toBe('2001:db8::1');
  });
});

describe('rateLimitKeyOfIp', () => {
  it('counts IPv4 by address and IPv6 by its /64, whatever the spelling', () => {
    expect(rateLimitKeyOfIp('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitKeyOfIp('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKeyOfIp('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKeyOfIp('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitKeyOfIp('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(rateLimitKeyOfIp('not an address')).toBe('not an address');
  });
});
