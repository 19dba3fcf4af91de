// Which client addresses may read account data: addresses and CIDR ranges of either family, an
// IPv4 client seen through a dual-stack socket matched as IPv4, anything unparsable refused.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@pmx/config';
import { Allowlist, DEFAULT_ALLOWLIST } from './allowlist.ts';

describe('Allowlist', () => {
  it('allows loopback only by default', () => {
    const list = Allowlist.parse(DEFAULT_ALLOWLIST);
    for (const ip of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1']) expect(list.allows(ip), ip).toBe(true);
    for (const ip of ['10.0.0.1', '::2', '192.168.1.1', '', 'localhost', '/tmp/pmx.sock']) expect(list.allows(ip), ip).toBe(false);
  });

  it('takes single addresses and ranges of both families', () => {
    const list = Allowlist.parse(['10.1.0.0/16', '192.0.2.7', '2001:db8::/48', 'fe80::1']);
    expect(['10.1.255.255', '192.0.2.7', '2001:db8:0:ffff::1', 'fe80::1', '::ffff:10.1.2.3'].map((ip) => list.allows(ip))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['10.2.0.0', '192.0.2.8', '2001:db9::1', 'fe80::2'].map((ip) => list.allows(ip))).toEqual([false, false, false, false]);
    expect(Allowlist.parse(['0.0.0.0/0', '::/0']).allows('203.0.113.9')).toBe(true);
    expect(Allowlist.parse([]).allows('127.0.0.1')).toBe(false);
  });

  it('refuses an entry that is no address or range, naming the setting', () => {
    for (const entry of ['10.0.0.0/33', 'example.com', '1.2.3', '::/129', '10.0.0.0/8/8'])
      expect(() => Allowlist.parse([entry]), entry).toThrow(ConfigError);
    expect(() => Allowlist.parse(['nope'])).toThrow(/PMX_DATA_ALLOWLIST must list IP addresses or CIDR ranges, got "nope"/);
  });
});
