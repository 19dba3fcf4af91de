// The front's way back: relays uWS's answers to the client and says when each final answer has
// been passed on whole, so the front sends a client's next request only then. uWS 20.30 closes a
// connection when a pipelined request arrives while an earlier answer on it is still pending (an
// async handler) and drops that answer; a client pipelining two orders would lose both acks.
// Answers are framed by Content-Length (uWS always sends one; the server answers a HEAD, which no
// route serves, with a length of 0 and no body). One the relay cannot frame (no length, chunked,
// or a protocol switch) makes it a plain pipe for the rest of the connection.

/** The blank line that ends an HTTP head. */
export const HEAD_END = Buffer.from('\r\n\r\n');
/** A longer answer head is not uWS's: stop framing. */
const MAX_HEAD = 64 * 1024;

const LENGTH_NAME = Buffer.from('\r\ncontent-length:');
const ENCODING_NAME = Buffer.from('\r\ntransfer-encoding:');

/**
 * The body length declared in the head at input[start, end), read from the bytes (no string per
 * answer); undefined when the head declares none, declares it twice, or has a transfer-encoding.
 */
export function contentLength(input: Buffer, start: number, end: number): number | undefined {
  let found: number | undefined;
  for (let at = start; at < end; at++) {
    if (input[at] !== 0x0d) continue;
    if (named(input, at, end, ENCODING_NAME)) return undefined;
    if (!named(input, at, end, LENGTH_NAME)) continue;
    if (found !== undefined) return undefined;
    let i = at + LENGTH_NAME.length;
    while (i < end && input[i] === 0x20) i++;
    let value = 0;
    let digits = 0;
    for (; i < end && input[i]! >= 0x30 && input[i]! <= 0x39 && digits < 15; i++, digits++)
      value = value * 10 + input[i]! - 0x30;
    if (digits === 0 || (i < end && input[i] !== 0x0d && input[i] !== 0x20)) return undefined;
    found = value;
  }
  return found;
}

/** Whether `name` ("\r\n" and a lower-case header name with its colon) starts at `at`, any case. */
function named(input: Buffer, at: number, end: number, name: Buffer): boolean {
  if (at + name.length > end || input[at + 1] !== 0x0a) return false;
  for (let k = 2; k < name.length; k++) if ((input[at + k]! | 0x20) !== name[k]) return false;
  return true;
}

/** The status code of the answer head starting at `start` ("HTTP/1.1 200 …"), read from the bytes. */
export function statusCode(input: Buffer, start: number): number {
  return (input[start + 9]! - 0x30) * 100 + (input[start + 10]! - 0x30) * 10 + (input[start + 11]! - 0x30);
}

/** Whether the head at input[start, end) has the header `name` (as for `named`) with `value` (lower case), any case. */
export function hasHeaderValue(input: Buffer, start: number, end: number, name: Buffer, value: string): boolean {
  for (let at = start; at < end; at++) {
    if (input[at] !== 0x0d || !named(input, at, end, name)) continue;
    let i = at + name.length;
    while (i < end && input[i] === 0x20) i++;
    let k = 0;
    while (k < value.length && i + k < end && (input[i + k]! | 0x20) === value.charCodeAt(k)) k++;
    if (k === value.length && (i + k === end || input[i + k] === 0x0d || input[i + k] === 0x20)) return true;
  }
  return false;
}

export interface RelayEvents {
  /** Passes bytes on to the client; false when the client's buffer is full. */
  write(bytes: Buffer): boolean;
  /** The final answer to the request in flight has been passed on whole. */
  complete(): void;
  /** From now on bytes pass unframed; `upgraded` after a 101 (the connection is no longer HTTP). */
  unframed(upgraded: boolean): void;
}

export class ResponseRelay {
  private raw = false;
  private partial: Buffer = Buffer.alloc(0);
  /** Body bytes still to pass of the current answer; -1 while reading a head. */
  private remaining = -1;

  constructor(private readonly events: RelayEvents) {}

  /**
   * Takes bytes from uWS and passes them on in one write (each write costs a system call, and on a
   * VM a wake-up of the reader), then follows the framing. Returns false when the client asked to
   * slow down. A chunk never runs past the answer in flight: uWS cannot answer a request it has
   * not been sent.
   */
  push(data: Buffer): boolean {
    const flowing = this.events.write(data);
    if (!this.raw) this.follow(data);
    return flowing;
  }

  private follow(data: Buffer): void {
    const input = this.partial.length > 0 ? Buffer.concat([this.partial, data]) : data;
    this.partial = Buffer.alloc(0);
    let offset = 0;
    while (offset < input.length && !this.raw) {
      if (this.remaining > 0) {
        const take = Math.min(this.remaining, input.length - offset);
        offset += take;
        this.remaining -= take;
        if (this.remaining === 0) this.finish();
        continue;
      }
      const end = input.indexOf(HEAD_END, offset);
      if (end < 0) {
        if (input.length - offset > MAX_HEAD) this.goRaw(false);
        else this.partial = Buffer.from(input.subarray(offset));
        return;
      }
      this.frame(input, offset, end);
      offset = end + HEAD_END.length;
    }
  }

  /** Reads the answer head at input[start, end): interim, upgrade, unframed, empty or with a body. */
  private frame(input: Buffer, start: number, end: number): void {
    const status = statusCode(input, start);
    if (status === 101) return this.goRaw(true);
    if (status >= 100 && status < 200) return; // an interim answer: the final one follows
    if (status === 204 || status === 304) return this.finish();
    const length = contentLength(input, start, end);
    if (length === undefined) return this.goRaw(false);
    this.remaining = length;
    if (this.remaining === 0) this.finish();
  }

  private finish(): void {
    this.remaining = -1;
    this.events.complete();
  }

  private goRaw(upgraded: boolean): void {
    this.raw = true;
    this.events.unframed(upgraded);
  }
}
