// The core's port (docs/design/cluster.md): gateways connect to its WebSocket (link/wire.ts) and
// send commands in batches; each gateway gets the core's snapshot, then every publication and the
// replies to its commands, in one ordered stream of one frame per turn (link-outbox.ts). The
// operator API and GET /health are served on the same port: /health answers 200 only while this
// core is active, so the edge sends operator requests to the active core, and a standby refuses
// gateways until it takes over.

import { createHttpServer, type ListeningHttpServer, type Route, type WebSocket } from '@pmx/http';
import { logger } from '@pmx/config';
import { CORE_PATH, type CommandFrame } from '../link/wire.ts';
import type { CoreService } from './core-service.ts';
import { coreHealthRoutes } from '../routes/core-health.ts';
import { LinkOutbox } from './link-outbox.ts';

const log = logger('clob.core');

type GatewaySocket = Record<string, never>;

export interface CoreServerOptions {
  service: CoreService;
  /** Whether this core owns the shards now (a standby's false until it takes over). */
  active: () => boolean;
  routes: Route<any>[];
  maxBodyBytes: number;
}

/** Sends a frame corked: uWS writes it in one syscall, with nothing left in its buffers. */
function sendFrame(ws: WebSocket<GatewaySocket>, frame: string): void {
  ws.cork(() => ws.send(frame, false));
}

export class CoreServer {
  private readonly outbox = new LinkOutbox<WebSocket<GatewaySocket>>(sendFrame);
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
                {},
                req.getHeader('sec-websocket-key'),
                req.getHeader('sec-websocket-protocol'),
                req.getHeader('sec-websocket-extensions'),
                context,
              );
            },
            open: (ws) => this.outbox.add(ws, options.service.snapshot()),
            message: (ws, message) => this.onCommands(ws, message),
            close: (ws) => this.outbox.remove(ws),
          },
        },
      ],
    });
    this.unsubscribe = options.service.subscribe((publication) => this.outbox.publish(publication));
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
      void this.options.service.execute(command).then((reply) => this.outbox.reply(ws, id, reply));
    }
  }

  /** Gateways see the link drop (their commands out are answered "outcome unknown") and reconnect. */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    for (const ws of this.outbox.sockets()) ws.end(1001, 'core stopping');
  }
}
