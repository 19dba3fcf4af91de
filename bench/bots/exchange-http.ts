// A bot's HTTP connection to the exchange's public port: keep-alive sockets from the bot's own
// source address (each bot is a trader on its own host: the edge's per-IP limits see it alone),
// JSON bodies, a 429's Retry-After honoured as a real bot would (wait, then send again), and a 425
// (a market recovering after a restart) retried after a short jittered pause, the same body again:
// a signed order keeps its id, so the exchange's replay rules see one order however often it comes.

import { Agent, request } from 'node:http';

export interface HttpAnswer {
  status: number;
  body: any;
  /** From the first byte sent to the last byte read, of the attempt that answered. */
  ms: number;
  /** 429s waited out before this answer. */
  throttled: number;
  /** 425s (recovering) waited out before this answer, and this one if it is a 425 too. */
  recovering: number;
}

export interface SendOptions {
  headers?: Record<string, string>;
  body?: string;
  /** Called before each attempt (a level-2 signature is fresh per attempt). */
  sign?: () => Record<string, string>;
  /** No retry after a 429 or a 425 once this time (ms since the epoch) has passed. */
  deadline?: number;
  /** Called at each 425, when it comes (a run counts them second by second). */
  onRecovering?: () => void;
}

/** Most 429s one request waits out before it is given up as throttled. */
const MAX_THROTTLED = 5;
/** How long one request keeps retrying 425s (a failover's recovery takes seconds, not minutes). */
export const RECOVERING_LIMIT_MS = 30_000;

/** The pause before a 425 is retried: 100–250 ms, jittered so a crowd does not come back in step. */
export function recoveringPauseMs(random: () => number = Math.random): number {
  return 100 + Math.floor(random() * 150);
}
const REQUEST_TIMEOUT_MS = 30_000;

export class ExchangeHttp {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(
    baseUrl: string,
    /** The source address of this bot's sockets (a loopback address of its own), or the default. */
    readonly localAddress?: string,
    maxSockets = 8,
  ) {
    this.url = new URL(baseUrl);
    this.agent = new Agent({ keepAlive: true, maxSockets, ...(localAddress === undefined ? {} : { localAddress }) });
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<HttpAnswer> {
    let throttled = 0;
    let recovering = 0;
    const recoveringUntil = Math.min(options.deadline ?? Infinity, Date.now() + RECOVERING_LIMIT_MS);
    for (;;) {
      const headers = { ...options.headers, ...options.sign?.() };
      const answer = await this.once(method, path, headers, options.body);
      let waitMs: number;
      if (answer.status === 425) {
        recovering++;
        options.onRecovering?.();
        waitMs = recoveringPauseMs();
        if (Date.now() + waitMs > recoveringUntil) return { ...answer, throttled, recovering };
      } else if (answer.status === 429 && throttled < MAX_THROTTLED) {
        throttled++;
        waitMs = retryAfterMs(answer.retryAfter);
        if (options.deadline !== undefined && Date.now() + waitMs > options.deadline)
          return { ...answer, throttled, recovering };
      } else {
        return { ...answer, throttled, recovering };
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  private once(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<Omit<HttpAnswer, 'throttled' | 'recovering'> & { retryAfter: string | undefined }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          timeout: REQUEST_TIMEOUT_MS,
          headers: {
            ...headers,
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // not JSON: kept as text
            }
            const retryAfter = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              body: parsed,
              ms: performance.now() - started,
              retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
            });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${REQUEST_TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Retry-After in seconds (the form the exchange sends), at least 50 ms; 1 s when missing or unreadable. */
export function retryAfterMs(header: string | undefined): number {
  const seconds = header === undefined ? NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.max(50, Math.min(60, seconds) * 1000) : 1000;
}
