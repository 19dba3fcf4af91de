// What the core sends its gateways in one event-loop turn (docs/design/cluster.md): one frame per
// gateway per turn, holding, in order, the publications every gateway gets and the replies to its
// own commands. A publication is serialised once for all gateways. The books publications of one
// turn that follow each other (replies between them aside) become one: each book's latest levels
// and every trade, at the place of the first. That moves later effects ahead of earlier replies,
// never a reply ahead of its batch's effects: a gateway's view may run ahead of a reply, not behind.

import type { BookLevels } from '@pmx/events';
import type { CoreReply, CoreSnapshot, MatchedTrade, Publication } from '../link/core-protocol.ts';

type BooksPublication = Extract<Publication, { type: 'books' }>;

/** A publication waiting in every gateway's frame, serialised when the first frame is built. */
class PublicationSlot {
  private json: string | undefined;
  constructor(readonly item: ['s', CoreSnapshot] | ['p', Publication]) {}

  serialised(): string {
    return (this.json ??= JSON.stringify(this.item));
  }
}

/** A turn's books publications merged: the latest levels of each book, every trade in order. */
class BooksSlot {
  private json: string | undefined;
  private at: number;
  private readonly books = new Map<string, BookLevels>();
  private readonly trades: MatchedTrade[] = [];

  constructor(first: BooksPublication) {
    this.at = first.at;
    this.merge(first);
  }

  merge(publication: BooksPublication): void {
    this.at = Math.max(this.at, publication.at);
    for (const levels of publication.books) this.books.set(levels.market, levels);
    for (const trade of publication.trades) this.trades.push(trade);
  }

  serialised(): string {
    if (this.json === undefined) {
      const books = [...this.books.values()];
      const publication: BooksPublication = { type: 'books', at: this.at, books, trades: this.trades };
      this.json = JSON.stringify(['p', publication]);
    }
    return this.json;
  }
}

type Reply = ['r', number, CoreReply];
type Entry = PublicationSlot | BooksSlot | Reply;

export class LinkOutbox<Socket> {
  private readonly boxes = new Map<Socket, Entry[]>();
  /** The books slot later books publications of this turn merge into, while nothing else was published after it. */
  private openBooks: BooksSlot | undefined;
  private scheduled = false;

  constructor(
    /** Sends one frame (`{"m":[…]}`, link/wire.ts) to a gateway. */
    private readonly send: (socket: Socket, frame: string) => void,
    private readonly schedule: (flush: () => void) => void = setImmediate,
  ) {}

  /** The gateways linked now (a copy: closing one removes it). */
  sockets(): Socket[] {
    return [...this.boxes.keys()];
  }

  /** A gateway linked: its first item is the snapshot; it gets every publication after it. */
  add(socket: Socket, snapshot: CoreSnapshot): void {
    this.boxes.set(socket, [new PublicationSlot(['s', snapshot])]);
    // Its snapshot already shows what an earlier slot of this turn says; what follows must reach it.
    this.openBooks = undefined;
    this.arm();
  }

  remove(socket: Socket): void {
    this.boxes.delete(socket);
  }

  publish(publication: Publication): void {
    if (this.boxes.size === 0) return;
    if (publication.type === 'books') {
      if (this.openBooks !== undefined) return this.openBooks.merge(publication);
      this.openBooks = new BooksSlot(publication);
      this.enqueueForAll(this.openBooks);
      return;
    }
    this.openBooks = undefined;
    this.enqueueForAll(new PublicationSlot(['p', publication]));
  }

  reply(socket: Socket, id: number, reply: CoreReply): void {
    const box = this.boxes.get(socket);
    if (box === undefined) return; // its link dropped: the gateway answered "outcome unknown"
    box.push(['r', id, reply]);
    this.arm();
  }

  private enqueueForAll(slot: PublicationSlot | BooksSlot): void {
    for (const box of this.boxes.values()) box.push(slot);
    this.arm();
  }

  private arm(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => this.flush());
  }

  /** Sends each gateway its frame of this turn. */
  flush(): void {
    this.scheduled = false;
    this.openBooks = undefined;
    for (const [socket, box] of this.boxes) {
      if (box.length === 0) continue;
      const frame = frameOf(box);
      box.length = 0;
      this.send(socket, frame);
    }
  }
}

/** `{"m":[…]}`: slots as serialised once, each run of replies in one JSON.stringify. */
function frameOf(entries: Entry[]): string {
  const parts: string[] = [];
  let replies: Reply[] = [];
  for (const entry of entries) {
    if (Array.isArray(entry)) {
      replies.push(entry);
      continue;
    }
    if (replies.length > 0) parts.push(JSON.stringify(replies).slice(1, -1));
    replies = [];
    parts.push(entry.serialised());
  }
  if (replies.length > 0) parts.push(JSON.stringify(replies).slice(1, -1));
  return `{"m":[${parts.join(',')}]}`;
}
