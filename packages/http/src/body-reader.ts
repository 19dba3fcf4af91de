// Reads a request body fully, under a size cap, before anything parses it. uWS hands the body
// over in chunks whose ArrayBuffers are neutered after each callback, so every chunk is copied.
import type { RequestContext } from './request-context.ts';
import type { Locals } from './route.ts';
import type { HttpResponse } from './uws.ts';

/** Who hears how the read ended; one per mounted route, so reading allocates no continuation. */
export interface BodyListener<L extends Locals> {
  bodyComplete(res: HttpResponse, ctx: RequestContext<L>): void;
  bodyTooLarge(res: HttpResponse, ctx: RequestContext<L>): void;
}

/**
 * @param declared Content-Length, or -2 for a chunked body of unknown size
 * @param cap the most bytes accepted; a body over it is rejected as soon as that is known
 *   (at once from Content-Length, or at the chunk that crosses it) and the rest is not read
 */
export function readBody<L extends Locals>(
  res: HttpResponse,
  ctx: RequestContext<L>,
  declared: number,
  cap: number,
  listener: BodyListener<L>,
): void {
  if (declared > cap) {
    listener.bodyTooLarge(res, ctx);
    return;
  }
  // With a Content-Length the body lands in one exact allocation; chunked bodies are gathered.
  const whole: Buffer | undefined = declared >= 0 ? Buffer.allocUnsafe(declared) : undefined;
  let parts: Buffer[] | undefined;
  let size = 0;
  res.onData((chunk: ArrayBuffer, isLast: boolean) => {
    if (ctx.aborted || ctx.responded) return;
    const length = chunk.byteLength;
    if (size + length > cap || (whole !== undefined && size + length > whole.length)) {
      listener.bodyTooLarge(res, ctx);
      return;
    }
    if (length > 0) {
      if (whole !== undefined) whole.set(new Uint8Array(chunk), size);
      else (parts ??= []).push(Buffer.from(new Uint8Array(chunk)));
    }
    size += length;
    if (!isLast) return;
    if (whole !== undefined) ctx.rawBody = size === whole.length ? whole : whole.subarray(0, size);
    else if (parts !== undefined) ctx.rawBody = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    listener.bodyComplete(res, ctx);
  });
}
