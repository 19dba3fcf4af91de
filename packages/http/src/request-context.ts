// Everything a hook or handler may know about one request, copied out of the uWS request
// (which is only valid until the uWS callback returns) so it survives any await. Only the peer
// address is fetched later, from the uWS response, because it is the one costly read.
import { forwardedClientIp, normaliseAddress } from './client-ip.ts';
import { HttpError } from './http-error.ts';
import type { Locals, Method, Route } from './route.ts';

/** Where the peer address comes from: the uWS response, valid until answered or aborted. */
export interface PeerSource {
  getRemoteAddressAsText(): ArrayBuffer;
}

const EMPTY_BODY: Buffer = Buffer.alloc(0);
const textDecoder = new TextDecoder();
const NOT_PARSED: unique symbol = Symbol('not parsed');

export class RequestContext<L extends Locals = Record<string, unknown>> {
  /**
   * Data attached by `before` hooks for the handler (e.g. the authenticated API key). Typed as
   * L for the handler's convenience; it starts empty and the hooks are what fill it.
   */
  locals: L = {} as L;
  /** Exact request body bytes (empty when there was none); what HMAC signatures are over. */
  rawBody: Buffer = EMPTY_BODY;
  /** Set by the layer when the client went away; nothing will be written for this request. */
  aborted = false;
  /** Set by the layer once a response has been written. */
  responded = false;

  #peer: PeerSource | undefined;
  #remote: string | undefined;
  #ip: string | undefined;
  #query: URLSearchParams | undefined;
  #text: string | undefined;
  #json: unknown = NOT_PARSED;

  constructor(
    /** The route being served (typed loosely so hooks written for any locals fit every route). */
    readonly route: Route<any>,
    readonly method: Method,
    /** URL path without the query string, as sent (not decoded). */
    readonly path: string,
    /** Path parameters by name, percent-decoded. */
    readonly params: Readonly<Record<string, string>>,
    /** The query string without '?', as sent. */
    readonly rawQuery: string,
    /** Request headers by lowercase name; repeated headers are joined with ', '. */
    readonly headers: Readonly<Record<string, string>>,
    peer: PeerSource | undefined,
  ) {
    this.#peer = peer;
  }

  /**
   * Client address: the socket peer; on the Unix socket (a peer without an address), where only
   * the edge connects, the address the edge wrote in X-Forwarded-For. A direct client's
   * X-Forwarded-For is never read. '' once the peer can no longer be asked.
   */
  get ip(): string {
    if (this.#ip === undefined) {
      const peer = this.#peerAddress();
      if (peer === undefined) return '';
      this.#ip = peer === '' ? (forwardedClientIp(this.headers['x-forwarded-for']) ?? '') : peer;
    }
    return this.#ip;
  }

  /**
   * The socket peer address, whatever X-Forwarded-For says. Asked of uWS on first use (it costs
   * a few µs); '' if first asked after the client went away.
   */
  get remoteAddress(): string {
    return this.#peerAddress() ?? '';
  }

  /** The peer's address ('' on a Unix socket), or undefined when it can no longer be asked. */
  #peerAddress(): string | undefined {
    if (this.#remote === undefined) {
      const peer = this.#peer;
      if (peer === undefined || this.aborted || this.responded) return undefined;
      this.#remote = normaliseAddress(textDecoder.decode(peer.getRemoteAddressAsText()));
    }
    return this.#remote;
  }

  /** Parsed query with URLSearchParams semantics (`get`, `getAll` for repeated keys, `has`). */
  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.rawQuery));
  }

  /**
   * A header by name, case-insensitive; undefined when absent. A name with '_' also matches
   * the same name with '-': uWS 20.30 drops any request whose header names contain '_' (it
   * never reaches a handler), so clients must send e.g. SVC-API-KEY for the contract's SVC_API_KEY.
   */
  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    const value = this.headers[lower];
    if (value !== undefined || !lower.includes('_')) return value;
    return this.headers[lower.replaceAll('_', '-')];
  }

  /** The body decoded as UTF-8. */
  get bodyText(): string {
    return (this.#text ??= this.rawBody.toString('utf8'));
  }

  /**
   * The body parsed as JSON, once; an empty or malformed body is a 400 HttpError, and so is one
   * with a NUL character (`\u0000`) or a lone UTF-16 surrogate (`\ud800` unpaired) in a string
   * or key: no service can store them (Postgres text refuses a NUL, jsonb a lone surrogate, and
   * text would store it altered), so they are refused here once rather than as a 500 wherever they
   * would land (a catalog event's metadata, say).
   */
  json<T = unknown>(): T {
    if (this.#json === NOT_PARSED) {
      if (this.rawBody.length === 0) throw new HttpError(400, 'request body is required');
      let parsed: unknown;
      try {
        parsed = JSON.parse(this.bodyText);
      } catch {
        throw new HttpError(400, 'invalid JSON body');
      }
      if (holdsNul(this.bodyText)) throw new HttpError(400, 'the JSON body must not contain NUL characters (\\u0000)');
      if (holdsLoneSurrogate(this.bodyText)) {
        throw new HttpError(
          400,
          'the JSON body must be valid Unicode: a \\uD800–\\uDFFF escape must be half of a surrogate pair',
        );
      }
      this.#json = parsed;
    }
    return this.#json as T;
  }
}

/**
 * Whether valid JSON text holds a NUL: written only as the escape \u0000, whose backslash is not
 * itself escaped (an odd run of backslashes before the u). Backslashes occur only inside strings,
 * so the text alone decides it, in one pass, however deeply the value nests.
 */
function holdsNul(json: string): boolean {
  for (let at = json.indexOf('\\u0000'); at !== -1; at = json.indexOf('\\u0000', at + 1))
    if (isEscape(json, at)) return true;
  return false;
}

/** Whether the backslash at `at` starts an escape: an odd run of backslashes ends there (`\\\\` is text). */
function isEscape(json: string, at: number): boolean {
  let backslashes = 0;
  for (let i = at; i >= 0 && json.charCodeAt(i) === 92; i--) backslashes++;
  return backslashes % 2 === 1;
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;

/**
 * Whether valid JSON text holds an unpaired UTF-16 surrogate. Decoded UTF-8 has none of its own
 * (a malformed sequence becomes U+FFFD), so only `\uD800`–`\uDFFF` escapes can make one: a high
 * half must be followed at once by an escaped low half, and a low half must follow one. Read from
 * the text in one pass, like holdsNul: walking the parsed value would overflow the stack on a
 * deeply nested body.
 */
function holdsLoneSurrogate(json: string): boolean {
  if (!json.includes('\\ud') && !json.includes('\\uD')) return false;
  /** Where the low half of the last high half must start, or -1. */
  let lowAt = -1;
  SURROGATE_ESCAPE.lastIndex = 0;
  for (let match = SURROGATE_ESCAPE.exec(json); match !== null; match = SURROGATE_ESCAPE.exec(json)) {
    // An escaped backslash and then the text "ud800" is no escape.
    if (!isEscape(json, match.index)) continue;
    const high = Number.parseInt(match[0].slice(2), 16) < 0xdc00;
    if (lowAt !== -1) {
      if (high || match.index !== lowAt) return true;
      lowAt = -1;
    } else if (high) lowAt = match.index + 6;
    else return true;
  }
  return lowAt !== -1;
}
