// A gateway's link to the core over the WebSocket (`ws` client; frames in link/wire.ts). It tries
// the core addresses in turn until one takes it (a standby refuses until it is active), applies
// the core's snapshot and publications to the gateway's view, and batches the commands of one
// event-loop turn into one frame. While no core answers, a command waits up to `waitMs` for one
// (a failover) and is then refused NO_CORE, never sent; a command sent when the link drops is
// answered STOPPING (its outcome is unknown: GET /data/order/{id} tells).

import WebSocket from 'ws';
import { logger } from '@pmx/config';
import type { CoreCommand, CoreLink, CoreReply } from '../link/core-protocol.ts';
import { ResultCode } from '../link/result-codes.ts';
import { CORE_PATH, type CoreFrame } from '../link/wire.ts';
import type { CoreView } from './core-view.ts';

const log = logger('clob.gateway');
const RETRY_MS = 100;
/** A core that has not answered a ping for this long is taken for dead (a cut network sends no FIN). */
const SILENT_MS = 3000;

interface Waiting {
  command: CoreCommand;
  resolve: (reply: CoreReply) => void;
  /** When it gives up waiting for a core (performance.now()). */
  until: number;
}

export interface CoreClientOptions {
  /** ws://host:port of every core (active and standbys). */
  urls: string[];
  view: CoreView;
  waitMs: number;
}

export class CoreClient implements CoreLink {
  private socket: WebSocket | undefined;
  private connected = false;
  private nextUrl = 0;
  private nextId = 1;
  /** Commands not sent yet (no core, or this turn's batch). */
  private queued: Waiting[] = [];
  private readonly sent = new Map<number, Waiting>();
  private scheduled = false;
  private closed = false;
  private expiry: NodeJS.Timeout;
  private lastHeard = performance.now();
  private firstConnect: Promise<void>;
  private onFirstConnect: () => void = () => {};

  constructor(private readonly options: CoreClientOptions) {
    this.firstConnect = new Promise((resolve) => (this.onFirstConnect = resolve));
    this.expiry = setInterval(() => this.tick(), 250);
    this.expiry.unref();
    this.connect();
  }

  /** Resolves once a core has taken this gateway (its snapshot is applied). */
  get connectedOnce(): Promise<void> {
    return this.firstConnect;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  execute(command: CoreCommand): Promise<CoreReply> {
    if (this.closed) return Promise.resolve({ code: ResultCode.STOPPING });
    return new Promise((resolve) => {
      this.queued.push({ command, resolve, until: performance.now() + this.options.waitMs });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || !this.connected) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.connected || this.queued.length === 0) return;
    const batch = this.queued;
    this.queued = [];
    const frame: [number, CoreCommand][] = [];
    for (const waiting of batch) {
      const id = this.nextId++;
      this.sent.set(id, waiting);
      frame.push([id, waiting.command]);
    }
    this.socket!.send(JSON.stringify({ c: frame }));
  }

  private connect(): void {
    if (this.closed) return;
    const url = this.options.urls[this.nextUrl++ % this.options.urls.length]!;
    const socket = new WebSocket(`${url}${CORE_PATH}`, { perMessageDeflate: false, handshakeTimeout: 2000 });
    this.socket = socket;
    socket.on('open', () => {
      this.connected = true;
      this.lastHeard = performance.now();
      log.info(`linked to the core at ${url}`);
    });
    socket.on('message', (data) => {
      this.lastHeard = performance.now();
      this.receive(JSON.parse(data.toString()) as CoreFrame);
    });
    socket.on('pong', () => (this.lastHeard = performance.now()));
    socket.on('ping', () => (this.lastHeard = performance.now()));
    socket.on('error', () => {}); // the close that follows says it
    socket.on('close', () => this.dropped(socket, url));
  }

  private receive(frame: CoreFrame): void {
    for (const item of frame.m) {
      if (item[0] === 'r') {
        const waiting = this.sent.get(item[1]);
        this.sent.delete(item[1]);
        waiting?.resolve(item[2]);
      } else if (item[0] === 'p') {
        this.options.view.apply(item[1]);
      } else {
        this.options.view.applySnapshot(item[1]);
        this.onFirstConnect();
        this.schedule(); // what waited for a core goes now
      }
    }
  }

  private dropped(socket: WebSocket, url: string): void {
    if (this.socket !== socket) return;
    const wasConnected = this.connected;
    this.connected = false;
    this.socket = undefined;
    if (wasConnected) {
      log.warn(`the link to the core at ${url} dropped; trying the cores again`);
      this.options.view.lost();
    }
    // Sent and unanswered: the core may have acted on them.
    for (const waiting of this.sent.values())
      waiting.resolve({
        code: ResultCode.STOPPING,
        detail:
          'the link to the trading core dropped before it answered; the command may or may not have been carried out (an order shows in GET /data/order/{id} if it was placed)',
      });
    this.sent.clear();
    if (!this.closed) setTimeout(() => this.connect(), wasConnected ? 0 : RETRY_MS).unref();
  }

  /** Gives up on commands that waited too long for a core; pings a linked core, drops a silent one. */
  private tick(): void {
    const now = performance.now();
    if (!this.connected) {
      const keep: Waiting[] = [];
      for (const waiting of this.queued) {
        if (waiting.until <= now) waiting.resolve({ code: ResultCode.NO_CORE });
        else keep.push(waiting);
      }
      this.queued = keep;
      return;
    }
    if (now - this.lastHeard > SILENT_MS) {
      log.warn('the core has not answered for 3 s; dropping the link');
      this.socket?.terminate();
      return;
    }
    this.socket?.ping();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.expiry);
    for (const waiting of this.queued) waiting.resolve({ code: ResultCode.STOPPING });
    this.queued = [];
    const socket = this.socket;
    if (socket === undefined) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.close();
      setTimeout(resolve, 1000).unref();
    });
  }
}
