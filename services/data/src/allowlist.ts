// Who may read account data: client addresses inside the configured addresses and CIDR ranges
// (PMX_DATA_ALLOWLIST; loopback by default). The client address is the HTTP layer's (X-Forwarded-For
// from trusted hops only); anything else is refused with the contract's `unauthorized: ip_not_allowlisted`.

import ipaddr from 'ipaddr.js';
import { ConfigError } from '@pmx/config';
import { HttpError, type Hook } from '@pmx/http';

export const DEFAULT_ALLOWLIST = ['127.0.0.0/8', '::1/128'];

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function plainAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));
}

export class Allowlist {
  private constructor(private readonly ranges: readonly Range[]) {}

  /** Each entry an address (`10.1.2.3`, `::1`) or a CIDR range (`10.0.0.0/8`, `2001:db8::/32`). */
  static parse(entries: readonly string[], variable = 'PMX_DATA_ALLOWLIST'): Allowlist {
    return new Allowlist(
      entries.map((entry): Range => {
        const refused = new ConfigError(variable, `must list IP addresses or CIDR ranges, got ${JSON.stringify(entry)}`);
        // Written out in full: ipaddr.js also takes inet_aton's short forms (1.2.3), which no one means here.
        if (!plainAddress(entry.split('/')[0]!)) throw refused;
        try {
          if (entry.includes('/')) return ipaddr.parseCIDR(entry);
          const address = ipaddr.parse(entry);
          return [address, address.kind() === 'ipv4' ? 32 : 128];
        } catch {
          throw refused;
        }
      }),
    );
  }

  allows(ip: string): boolean {
    if (!ipaddr.isValid(ip)) return false;
    // An IPv4 client on a dual-stack socket may show as ::ffff:a.b.c.d: it is matched as IPv4.
    const address = ipaddr.process(ip);
    return this.ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
  }

  hook(): Hook {
    return (ctx) => {
      if (!this.allows(ctx.ip)) throw new HttpError(401, 'unauthorized: ip_not_allowlisted');
    };
  }
}
