// Decides the client address a request is attributed to (rate limits, allowlists). Behind N
// trusted proxies the client is the N-th address from the right of X-Forwarded-For: entries to
// its left were written by the client and can be forged. Rate limits count an IPv6 client by
// its /64, the block one host is given.

import ipaddr from 'ipaddr.js';

const MAPPED_IPV4_LONG = '0000:0000:0000:0000:0000:ffff:';

/** uWS prints an IPv4 peer on a dual-stack socket in full IPv6-mapped form; make it plain IPv4. */
export function normaliseAddress(text: string): string {
  if (text.startsWith(MAPPED_IPV4_LONG)) {
    const hex = text.slice(MAPPED_IPV4_LONG.length).replace(':', '');
    if (hex.length === 8) {
      const n = Number.parseInt(hex, 16);
      return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
    }
  }
  if (text.startsWith('::ffff:') && text.includes('.')) return text.slice(7);
  return text;
}

/**
 * The client address X-Forwarded-For vouches for, or undefined when it does not apply and the
 * socket peer is the client.
 * @param trustedProxyHops how many proxies in front of this server append to X-Forwarded-For;
 *   0 (the default everywhere) ignores the header entirely
 */
export function forwardedClientIp(forwardedFor: string | undefined, trustedProxyHops: number): string | undefined {
  if (trustedProxyHops <= 0 || forwardedFor === undefined || forwardedFor === '') return undefined;
  const hops = forwardedFor.split(',');
  const chosen = hops[Math.max(0, hops.length - trustedProxyHops)]!.trim();
  return chosen === '' ? undefined : normaliseAddress(withoutPort(chosen));
}

/**
 * The address of an entry some proxies write with its port (`1.2.3.4:5678`, `[2001:db8::1]:443`)
 * or in brackets: kept whole, each source port would be a budget of its own in the rate limits,
 * and an IPv6 client would lose its /64 grouping.
 */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed !== null) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return v4 === null ? entry : v4[1]!;
}

/**
 * The key a client's requests are counted under in rate limits: an IPv4 address as it is, an
 * IPv6 address by its /64 (one host commonly holds a whole /64, so counting per address would
 * let it take 2^64 budgets). Anything unparsable (a Unix socket peer, say) as it is.
 */
export function rateLimitKeyOfIp(ip: string): string {
  if (!ip.includes(':') || !ipaddr.IPv6.isValid(ip)) return ip;
  const address = ipaddr.IPv6.parse(ip);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${address.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
