// How the front reads a client's requests: the head rewritten for uWS ('_' → '-' in header names,
// the client's address appended to X-Forwarded-For), the body's framing (ambiguous framing is
// refused, never guessed), chunked bodies decoded, and whether the request may share a lane.

/** Header fields uWS 20.30 answers a request with (measured: it stays silent on the 49th). */
const UWS_MAX_HEADERS = 48;

/** Headers that frame or route a request: never taken from a name spelled with '_'. */
const HOP_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'x-forwarded-for',
  'forwarded',
  'x-real-ip',
  'host',
  'connection',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'keep-alive',
  'proxy-connection',
]);

export type Framing = { kind: 'none' } | { kind: 'length'; remaining: number } | { kind: 'chunked' };

export class FramingError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Largest head (and header count) a request may have to share a lane: well inside uWS's limits. */
const SHARED_HEAD_BYTES = 2048;
const SHARED_HEADERS = 32;
/** A GET request line with a target of visible ASCII; group 1 is the path. */
const SHARED_REQUEST_LINE = /^GET (\/[\x21-\x3e\x40-\x7e]*)(?:\?[\x21-\x7e]*)? HTTP\/1\.1$/;
const SHARED_NAME = /^[A-Za-z0-9-]+$/;
const SHARED_VALUE = /^[\x20-\x7e\t]*$/;
/** A request line of some HTTP version other than 1.1, which is all the front serves. */
const ANY_VERSION = / HTTP\/\d+(?:\.\d+)?$/;
/**
 * A header name uWS 20.30 takes (after '_' → '-'): letters, digits and '-'. It never answers a
 * request with any other, though RFC 9110 allows more (`!#$%&'*+.^`|~`); none of those is in use.
 */
const HEADER_NAME = /^[A-Za-z0-9_-]+$/;
/** The methods uWS 20.30 parses; on any other it closes the connection without an answer. */
const METHOD = /^(?:GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS|TRACE|CONNECT) /;
/** Headers that change the connection or the message: a request with one keeps to its own. */
const UNSHAREABLE = new Set([
  'connection',
  'upgrade',
  'expect',
  'content-length',
  'transfer-encoding',
  'te',
  'trailer',
]);

/** Bytes no header value may hold (RFC 9110 §5.5: tab is the one control character allowed). */
const VALUE_CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Bytes no request target may hold unencoded. */
const TARGET_CONTROL = /[\x00-\x20\x7f]/;

/** An absolute-form target (`http://host/path?q`), which RFC 9112 §3.2.2 has servers accept; group 1 is its path and query. */
const ABSOLUTE_TARGET = /^https?:\/\/[^/?#\s]*([/?][^\s]*)?$/i;

/**
 * The request line with its target in origin-form (`/path?q`), which is all uWS 20.30 answers (on
 * an absolute URL it never answers); 400 for any other target (authority-form, `*`).
 */
function originForm(line: string): string {
  const first = line.indexOf(' ');
  const last = line.lastIndexOf(' ');
  const target = line.slice(first + 1, last);
  // A space or control byte in the target (uWS never answers one): percent-encode it.
  if (TARGET_CONTROL.test(target))
    throw new FramingError(400, 'malformed request target: spaces and control characters must be percent-encoded');
  if (target.startsWith('/')) return line;
  const absolute = ABSOLUTE_TARGET.exec(target);
  if (absolute === null) throw new FramingError(400, 'malformed request target: send a path such as /markets');
  const rest = absolute[1] ?? '/';
  return `${line.slice(0, first)} ${rest.startsWith('?') ? `/${rest}` : rest}${line.slice(last)}`;
}

/**
 * Rewrites one request head; returns it, how its body is framed, and whether it may go over a
 * shared lane (get-lanes.ts): a GET of HTTP/1.1 to a path `sharedPath` allows, with no body, nothing
 * about the connection but keep-alive, and nothing uWS could refuse (so a client cannot break a
 * lane others' requests are on: only plain names and values, one Host, and a small head). A
 * version other than HTTP/1.1 is refused with 505, a method uWS does not know with 501 and a
 * header name it does not take with 400: uWS would close on them without a word.
 */
export function rewriteHead(
  head: string,
  clientIp: string,
  sharedPath?: (path: string) => boolean,
): { head: string; framing: Framing; shareable: boolean; continueNow: boolean } {
  const lines = head.split('\r\n');
  // uWS 20.30 never answers HTTP/1.0: say so rather than leave the client waiting.
  if (!lines[0]!.endsWith(' HTTP/1.1')) {
    throw ANY_VERSION.test(lines[0]!)
      ? new FramingError(505, 'only HTTP/1.1 is served')
      : new FramingError(400, 'malformed request line');
  }
  if (!METHOD.test(lines[0]!)) throw new FramingError(501, 'method not implemented');
  lines[0] = originForm(lines[0]!);
  const out = [lines[0]!];
  let expectContinue = false;
  let hosts = 0;
  let emptyHost = false;
  let length: number | undefined;
  let chunked = false;
  let forwarded: string | undefined;
  let shareable = false;
  if (sharedPath !== undefined && head.length <= SHARED_HEAD_BYTES && lines.length <= SHARED_HEADERS + 1) {
    const path = SHARED_REQUEST_LINE.exec(lines[0]!)?.[1];
    shareable = path !== undefined && sharedPath(path);
  }
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new FramingError(400, 'malformed header line');
    if (!HEADER_NAME.test(line.slice(0, colon)))
      throw new FramingError(400, "unsupported header name: letters, digits, '-' and '_' only");
    const raw = line.slice(0, colon);
    const name = raw.replaceAll('_', '-');
    const value = valueOf(line, colon + 1);
    // uWS 20.30 never answers a value with a control byte (tab aside): say so.
    if (VALUE_CONTROL.test(value)) throw new FramingError(400, `${raw}: control characters in a header value`);
    const lower = name.toLowerCase();
    // The rename is for the contract's SVC_ names. A proxy in front of pmx does not know that
    // Content_Length or X_Forwarded_For become framing or forwarding headers here: honouring them
    // would let a client frame a body the proxy never saw, or pick its own address.
    if (name !== raw && HOP_HEADERS.has(lower))
      throw new FramingError(400, `${raw}: this header is only accepted spelled with '-'`);
    if (lower === 'host') {
      hosts++;
      emptyHost ||= value === '';
    }
    if (
      shareable &&
      (!SHARED_NAME.test(name) ||
        !SHARED_VALUE.test(value) ||
        (UNSHAREABLE.has(lower) && !(lower === 'connection' && value.toLowerCase() === 'keep-alive')))
    ) {
      shareable = false;
    }
    if (lower === 'content-length') {
      if (length !== undefined || !/^\d{1,15}$/.test(value))
        throw new FramingError(400, 'bad or repeated Content-Length');
      length = Number(value);
    } else if (lower === 'transfer-encoding') {
      if (chunked || value.toLowerCase() !== 'chunked') throw new FramingError(400, 'unsupported Transfer-Encoding');
      chunked = true;
      continue;
    } else if (lower === 'expect' && value.toLowerCase() === '100-continue') {
      expectContinue = true;
    } else if (lower === 'x-forwarded-for') {
      forwarded = forwarded === undefined ? value : `${forwarded}, ${value}`;
      continue;
    }
    out.push(`${name}: ${value}`);
  }
  if (chunked && length !== undefined) throw new FramingError(400, 'Content-Length with Transfer-Encoding');
  // RFC 9112 §3.2: a request without a Host, or with two, is answered 400. uWS closes the
  // connection on one without a Host without a word, so the front answers it rather than passing
  // it on (an order with valid credentials would get no answer).
  if (hosts === 0) throw new FramingError(400, 'missing Host header');
  if (hosts > 1) throw new FramingError(400, 'more than one Host header');
  // An empty Host goes on the client's own connection, never a lane (a GET uWS refused there would
  // fail other clients' GETs).
  if (emptyHost) shareable = false;
  out.push(`x-forwarded-for: ${forwarded === undefined ? clientIp : `${forwarded}, ${clientIp}`}`);
  // uWS 20.30 never answers a request of more than 48 header fields (the front's X-Forwarded-For
  // included, and the length a chunked body is sent with): say so rather than leave the client
  // waiting for its idle time.
  if (out.length - 1 + (chunked ? 1 : 0) > UWS_MAX_HEADERS)
    throw new FramingError(431, `too many header fields: at most ${UWS_MAX_HEADERS - 1} (X-Forwarded-For is added)`);
  const framing: Framing = chunked
    ? { kind: 'chunked' }
    : length
      ? { kind: 'length', remaining: length }
      : { kind: 'none' };
  // A chunked body is forwarded decoded, its head sent with the length once the body is complete:
  // a client waiting for 100 Continue before it sends the body gets it from the front at once,
  // and uWS, which gets the whole body, no Expect.
  const continueNow = chunked && expectContinue;
  const sent = continueNow ? out.filter((line) => !/^expect:/i.test(line)) : out;
  return { head: chunked ? sent.join('\r\n') : `${sent.join('\r\n')}\r\n\r\n`, framing, shareable, continueNow };
}

/**
 * A header value from `from` on, without the optional whitespace around it: spaces and tabs only
 * (RFC 9110 §5.6.3). Not String.trim, which on the latin1 text of a head also cuts \xa0 (and
 * \x0b, \x0c): the last byte of UTF-8 characters such as 'à'.
 */
function valueOf(line: string, from: number): string {
  let start = from;
  let end = line.length;
  while (start < end && isOws(line.charCodeAt(start))) start++;
  while (end > start && isOws(line.charCodeAt(end - 1))) end--;
  return line.slice(start, end);
}

function isOws(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

const MAX_TRAILERS = 32;

/**
 * Decodes a chunked body from a byte stream, bounded in size: past `limit` it is refused (413);
 * past `keep` it is still read to its end but no longer stored (the server refuses it from its
 * declared length alone, so only the size is forwarded).
 */
export class ChunkedBody {
  private state: 'size' | 'data' | 'data-crlf' | 'trailer' = 'size';
  private line = '';
  /** Trailer fields read (and dropped): bounded, or a client could send them for ever. */
  private trailers = 0;
  private remaining = 0;
  /** The decoded bytes kept so far, copied out of the input: a view per chunk kept every input
   * buffer it came from alive, ≈ 140 B of heap per 1-byte chunk (6 bytes on the wire). */
  private kept = Buffer.alloc(0);
  private stored = 0;
  private total = 0;

  constructor(
    private readonly limit: number,
    private readonly keep = limit,
  ) {}

  /** The body's size so far (all of it once consume said done). */
  get size(): number {
    return this.total;
  }

  /** Consumes bytes of `input` from `start`; returns where it stopped and whether the body ended. */
  consume(input: Buffer, start: number): { end: number; done: boolean } {
    let i = start;
    while (i < input.length) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, input.length - i);
        if (this.total <= this.keep) this.store(input, i, i + take);
        i += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'data-crlf';
        continue;
      }
      const byte = input[i++]!;
      if (byte !== 0x0a) {
        if (byte !== 0x0d) this.line += String.fromCharCode(byte);
        if (this.line.length > 1024) throw new FramingError(400, 'chunk line too long');
        continue;
      }
      const line = this.line;
      this.line = '';
      if (this.state === 'size') {
        if (!/^[0-9a-fA-F]{1,8}(;.*)?$/.test(line.trim())) throw new FramingError(400, 'bad chunk size');
        const size = Number.parseInt(line, 16);
        this.total += size;
        if (this.total > this.limit) throw new FramingError(413, 'request body too large');
        if (size === 0) this.state = 'trailer';
        else {
          this.remaining = size;
          this.state = 'data';
        }
      } else if (this.state === 'data-crlf') {
        if (line !== '') throw new FramingError(400, 'bad chunk terminator');
        this.state = 'size';
      } else if (line === '') {
        return { end: i, done: true };
      } else if (++this.trailers > MAX_TRAILERS) {
        throw new FramingError(431, `too many trailer fields: at most ${MAX_TRAILERS}`);
      }
    }
    return { end: i, done: false };
  }

  private store(input: Buffer, from: number, to: number): void {
    const need = this.stored + (to - from);
    if (need > this.kept.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, Math.min(this.kept.length * 2 || 4096, this.keep)));
      this.kept.copy(grown, 0, 0, this.stored);
      this.kept = grown;
    }
    input.copy(this.kept, this.stored, from, to);
    this.stored = need;
  }

  /** The whole body; only when its size is within `keep`. */
  body(): Buffer {
    if (this.total > this.keep)
      throw new Error(`ChunkedBody: a body of ${this.total} bytes is over the ${this.keep} kept`);
    return this.kept.subarray(0, this.stored);
  }
}
