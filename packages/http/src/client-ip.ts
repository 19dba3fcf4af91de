// Decides the client address a request is attributed to (allowlists, logs): the socket peer, or
// on the edge's Unix socket the address the edge wrote in X-Forwarded-For (docs/design/edge.md).

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
 * The client address the edge wrote in X-Forwarded-For: the header's last entry (the edge replaces
 * whatever the client sent with one entry of its own), or undefined when there is none.
 */
export function forwardedClientIp(forwardedFor: string | undefined): string | undefined {
  if (forwardedFor === undefined || forwardedFor === '') return undefined;
  const chosen = forwardedFor.slice(forwardedFor.lastIndexOf(',') + 1).trim();
  return chosen === '' ? undefined : normaliseAddress(chosen);
}
