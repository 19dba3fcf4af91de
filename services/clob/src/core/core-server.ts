// The core's port (docs/design/cluster.md): gateways connect to its WebSocket (link/wire.ts) and
// send commands in batches; each gateway gets the core's snapshot, then every publication and the
// replies to its commands, in one ordered stream. The operator API and GET /health are served on
// the same port: /health answers 200 only while this core is active, so the edge sends operator
// requests to the active core, and a standby refuses gateways until it takes over.

import { createHttpServer, type ListeningHttpServer, type Route, type WebSocket } from '@pmx/http';
import { logger } from '@pmx/config';
import { CORE_PATH, type CommandFrame } from '../link/wire.ts';
import type { CoreService } from './core-service.ts';
import { coreHealthRoutes } from '../routes/core-health.ts';

const log = logger('clob.core');

interface GatewaySocket {
  /** Serialised items waiting for the next frame. */
  outbox: string[];
  scheduled: boolean;
}

export interface CoreServerOptions {
  service: CoreService;
  /** Whether this core owns the shards now (a standby's false until it takes over). */
  active: () => boolean;
  routes: Route<any>[];
  maxBodyBytes: number;
}

export class CoreServer {
  private readonly sockets = new Set<WebSocket<GatewaySocket>>();
  private readonly server;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: CoreServerOptions) {
    this.server = createHttpServer<any>({
      routes: [...coreHealthRoutes(options.active, () => options.service.status()), ...options.routes],
      errorShape: 'simple',
      maxBodyBytes: options.maxBodyBytes,
      websockets: [
        {
          path: CORE_PATH,
          behavior: {
            maxPayloadLength: 64 * 1024 * 1024,
            maxBackpressure: 256 * 1024 * 1024,
            idleTimeout: 0,
            sendPingsAutomatically: true,
            upgrade: (res, req, context) => {
              if (!options.active()) {
                res.writeStatus('503 Service Unavailable').end('standby');
                return;
              }
              res.upgrade<GatewaySocket>(
                { outbox: [], scheduled: false },
                req.getHeader('sec-websocket-key'),
                req.getHeader('sec-websocket-protocol'),
                req.getHeader('sec-websocket-extensions'),
                context,
              );
            },
            open: (ws) => {
              this.sockets.add(ws);
              this.push(ws, JSON.stringify(['s', options.service.snapshot()]));
            },
            message: (ws, message) => this.onCommands(ws, message),
            close: (ws) => this.sockets.delete(ws),
          },
        },
      ],
    });
    this.unsubscribe = options.service.subscribe((publication) => {
      if (this.sockets.size === 0) return;
      const item = JSON.stringify(['p', publication]);
      for (const ws of this.sockets) this.push(ws, item);
    });
  }

  listen(port: number, host: string): ListeningHttpServer {
    return this.server.listen(port, host);
  }

  private onCommands(ws: WebSocket<GatewaySocket>, message: ArrayBuffer): void {
    let frame: CommandFrame;
    try {
      frame = JSON.parse(Buffer.from(message).toString()) as CommandFrame;
    } catch (error) {
      log.error({ err: error }, 'a gateway sent a frame that is not JSON; closing its link');
      ws.end(1003, 'not JSON');
      return;
    }
    for (const [id, command] of frame.c) {
      void this.options.service.execute(command).then((reply) => {
        if (this.sockets.has(ws)) this.push(ws, JSON.stringify(['r', id, reply]));
      });
    }
  }

  private push(ws: WebSocket<GatewaySocket>, item: string): void {
    const data = ws.getUserData();
    data.outbox.push(item);
    if (data.scheduled) return;
    data.scheduled = true;
    setImmediate(() => {
      data.scheduled = false;
      if (!this.sockets.has(ws)) return;
      const items = data.outbox;
      data.outbox = [];
      ws.send(`{"m":[${items.join(',')}]}`, false);
    });
  }

  /** Gateways see the link drop (their commands out are answered "outcome unknown") and reconnect. */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const ws of [...this.sockets]) ws.end(1001, 'core stopping');
  }
}
