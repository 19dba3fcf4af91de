// The link's frames on the WebSocket (docs/design/cluster.md), JSON text both ways:
// gateway → core `{"c":[[id, command], …]}`, a batch of commands per event-loop turn;
// core → gateway `{"m":[item, …]}`, items in the order they happened: ["s", snapshot] first,
// then ["p", publication] and ["r", id, reply]. A batch's publication precedes its replies, so a
// gateway answers a client only once its view shows what the command did.

import type { CoreCommand, CoreReply, CoreSnapshot, Publication } from './core-protocol.ts';

export const CORE_PATH = '/core';

export type CommandFrame = { c: [id: number, command: CoreCommand][] };

export type CoreItem = ['s', CoreSnapshot] | ['p', Publication] | ['r', number, CoreReply];

export type CoreFrame = { m: CoreItem[] };
